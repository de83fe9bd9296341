/**
 * Bash costs: the analysis time per command over the whole corpus (p50/p99), and what the OS sandbox
 * adds to a command: `true` run through the session shell (PTY, cwd tracking) inside the sandbox
 * runtime (bubblewrap, proxy) against the same without it — in the session's long-lived sandboxed
 * shell (the default; target: within 3 ms of unsandboxed at p50) and with a sandbox of its own per
 * command (as before the long-lived shell). Run with `npm run bench -- bash`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeCommandSync } from '../src-main/harness/bash/analyze';
import { SandboxService, secretPaths } from '../src-main/harness/bash/sandbox';
import { SessionShell } from '../src-main/harness/bash/shell-executor';
import { sandboxWriteDenials } from '../src-main/harness/permissions/protected-paths';
import { loadBashParser } from '../src-main/harness/bash/tree-sitter';
import { sanitizeEnv } from '../src-main/platform/env';
import { round, summarize } from './stats';

const ROUNDS = 20;
const RUNS = 30;
const FLOOD_MB = 40;

async function runTrue(shell: SessionShell, cwd: string): Promise<number> {
  const started = performance.now();
  const gen = shell.run('true', { cwd, timeoutMs: 30_000, signal: new AbortController().signal });
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      if (step.value.exitCode !== 0) throw new Error(`true failed: ${step.value.output}`);
      break;
    }
  }
  return performance.now() - started;
}

export async function benchBash() {
  const corpus = JSON.parse(
    readFileSync(path.join(import.meta.dirname, '../src-main/harness/bash/corpus.json'), 'utf8'),
  ) as Record<string, string[] | string>;
  const commands = Object.values(corpus)
    .filter((v) => Array.isArray(v))
    .flat();
  const loadStart = performance.now();
  await loadBashParser();
  const parserLoadMs = performance.now() - loadStart;
  const perCommand: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const command of commands) {
      const t = performance.now();
      analyzeCommandSync(command);
      if (round > 0) perCommand.push((performance.now() - t) * 1000);
    }

  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-bash-'));
  execFileSync('git', ['init', '-q', project]);
  const sandbox = new SandboxService();
  const status = await sandbox.status();
  // As sessions run them: the protected paths are computed for every command, and the git guard
  // watches the project while a sandboxed one runs.
  const policy = (sandboxed: boolean) => () => ({
    sandboxed,
    excludedCommands: [],
    writable: [project],
    denyWrite: sandboxed ? sandboxWriteDenials([project]) : [],
    guardRoots: [project],
    quarantineDir: path.join(project, '.quarantine'),
    denyRead: secretPaths(homedir(), project),
    allowedDomains: ['registry.npmjs.org'],
  });
  const env = sanitizeEnv(process.env);
  const plain = new SessionShell({ env, sandbox, policy: policy(false) });
  const boxed = new SessionShell({ env, sandbox, policy: policy(true) });
  const ownSandbox = new SessionShell({ env, sandbox, policy: policy(true), longLived: false });
  try {
    // Warm every path (module loads, the sandbox's proxy start, the long-lived shell), then alternate
    // so drift hits all of them.
    await runTrue(plain, project);
    if (status.available) await runTrue(boxed, project);
    if (status.available) await runTrue(ownSandbox, project);
    const plainMs: number[] = [];
    const boxedMs: number[] = [];
    const perCommandMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plainMs.push(await runTrue(plain, project));
      if (status.available) boxedMs.push(await runTrue(boxed, project));
      if (status.available && i % 3 === 0) perCommandMs.push(await runTrue(ownSandbox, project));
    }
    // A flood through the same path the Bash tool takes (kept output capped, the rest counted).
    const floodStart = performance.now();
    const flood = plain.run(`head -c ${FLOOD_MB * 1024 * 1024} /dev/zero | tr '\\0' x; echo`, {
      cwd: project,
      timeoutMs: 300_000,
      signal: new AbortController().signal,
    });
    let streamed = 0;
    for (;;) {
      const step = await flood.next();
      if (step.done) break;
      streamed += step.value.length;
    }
    const floodMs = performance.now() - floodStart;
    const p = summarize(plainMs);
    const b = summarize(boxedMs);
    return {
      name: 'bash',
      analysis: {
        commands: commands.length,
        parserLoadMs: round(parserLoadMs),
        perCommandMicroseconds: summarize(perCommand),
      },
      flood: {
        mb: FLOOD_MB,
        seconds: round(floodMs / 1000, 2),
        mbPerSecond: round(FLOOD_MB / (floodMs / 1000)),
        streamedChars: streamed,
      },
      trueCommand: {
        runs: RUNS,
        sandbox: status.available
          ? 'bubblewrap via @anthropic-ai/sandbox-runtime'
          : `unavailable: ${status.reason}`,
        unsandboxedMs: p,
        sandboxedMs: b,
        sandboxOverheadP50Ms: round(b.p50 - p.p50),
        targetOverheadP50Ms: 3,
        sandboxPerCommandMs: summarize(perCommandMs),
      },
    };
  } finally {
    await boxed.close();
    await sandbox.close();
    rmSync(project, { recursive: true, force: true });
  }
}
