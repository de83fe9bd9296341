import { PassThrough } from 'node:stream';
import { parsePrintArgs } from '../cli/print-args';
import { runPrint } from '../cli/print-command';

/** One `carapace -p` run in this process, as a test drives it: exit code, stdout and stderr whole. */
export async function capturePrint(
  argv: string[],
  o: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await runPrint(parsePrintArgs(argv), {
    stdout,
    stderr,
    stdin: process.stdin,
    env: o.env,
    cwd: o.cwd,
  });
  return { code, out, err };
}
