import { PassThrough } from 'node:stream';
import { parsePrintArgs } from '../cli/print-args';
import { runPrint } from '../cli/print-command';
import { parseUsageArgs } from '../cli/usage-args';
import { runUsage, type UsageIo } from '../cli/usage-command';

/** What a CLI run left: its exit code, and stdout and stderr whole. */
export interface CapturedRun {
  code: number;
  out: string;
  err: string;
}

/** Runs a CLI entry point in this process on fresh stdout and stderr streams, and keeps what they got. */
export async function captureRun(
  run: (io: { stdout: PassThrough; stderr: PassThrough }) => Promise<number>,
): Promise<CapturedRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await run({ stdout, stderr });
  return { code, out, err };
}

/** One `carapace -p` run in this process, as a test drives it: exit code, stdout and stderr whole. */
export function capturePrint(
  argv: string[],
  o: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<CapturedRun> {
  return captureRun(({ stdout, stderr }) =>
    runPrint(parsePrintArgs(argv), { stdout, stderr, stdin: process.stdin, env: o.env, cwd: o.cwd }),
  );
}

/** One `carapace usage` run in this process: exit code, stdout and stderr whole. */
export function captureUsage(argv: string[], io: Omit<UsageIo, 'stdout' | 'stderr'>): Promise<CapturedRun> {
  return captureRun(({ stdout, stderr }) => runUsage(parseUsageArgs(argv), { stdout, stderr, ...io }));
}

/** The last line of a `--output-format json` run's stdout: its result object. */
export function lastJsonLine(out: string): Record<string, unknown> {
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

/**
 * The environment a `-p` test runs with: its own Carapace home and HOME, this PATH, and the scripted
 * Messages API at `apiUrl` with a dummy key.
 */
export function printEnv(home: string, apiUrl: string): Record<string, string> {
  return {
    CARAPACE_HOME: home,
    HOME: home,
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: apiUrl,
  };
}
