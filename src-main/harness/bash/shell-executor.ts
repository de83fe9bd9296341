import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { endMarkerTrap, runInPty } from './pty-runner';
import type { SandboxService } from './sandbox';

export interface ShellRunResult {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** The working directory the command ended in (a `cd` carries over), or null if unknown. */
  cwd: string | null;
  sandboxed: boolean;
}

export interface ShellRunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** How the model's commands run: the capability the Bash tool gets through its context. */
export interface ShellExecutor {
  run(command: string, o: ShellRunOptions): AsyncGenerator<string, ShellRunResult>;
}

/** What the sandbox allows a session's commands, read fresh for every command (settings can change). */
export interface ShellPolicy {
  /** Run inside the OS sandbox (enabled in settings and available here). */
  sandboxed: boolean;
  /** Commands that always run outside the sandbox (`sandbox.excludedCommands`). */
  excludedCommands: readonly string[];
  writable: readonly string[];
  denyRead: readonly string[];
  allowedDomains: readonly string[];
  /** The session's temp folder: created, writable, and TMPDIR inside the sandbox. */
  tempDir?: string;
}

export interface ShellExecutorOptions {
  /** The environment commands see: the user's, without secrets. */
  env: NodeJS.ProcessEnv;
  sandbox: SandboxService | null;
  policy: () => ShellPolicy;
  /** A folder of the session's for bookkeeping files (where the final cwd is written). */
  stateDir: string;
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function firstWord(command: string): string {
  return command.trim().split(/\s+/)[0] ?? '';
}

/**
 * Runs commands in a PTY, inside the sandbox when the policy says so, and reports the directory each
 * ends in so the next command starts there (a `cd` persists, as in a terminal).
 */
export class SessionShell implements ShellExecutor {
  constructor(private readonly o: ShellExecutorOptions) {}

  async *run(command: string, r: ShellRunOptions): AsyncGenerator<string, ShellRunResult> {
    mkdirSync(this.o.stateDir, { recursive: true });
    const cwdFile = path.join(this.o.stateDir, `cwd-${randomUUID()}`);
    // The command runs as written; afterwards the shell notes where it ended up.
    const policy = this.o.policy();
    const sandbox = this.o.sandbox;
    // Enabled in settings, able to start here, and not a command the settings exclude.
    const sandboxed =
      policy.sandboxed &&
      sandbox !== null &&
      !policy.excludedCommands.includes(firstWord(command)) &&
      (await sandbox.status()).available;
    if (policy.tempDir) mkdirSync(policy.tempDir, { recursive: true });
    const prelude = sandboxed && policy.tempDir ? `export TMPDIR=${quote(policy.tempDir)}\n` : '';
    // On exit, wherever it happens (the end, `exit 3`, `set -e`): note the cwd, print the end marker.
    const end = { marker: `CARAPACE_END_${randomUUID().replace(/-/g, '')}` };
    const script = `${prelude}${endMarkerTrap(end, `pwd -P >| ${quote(cwdFile)} 2>/dev/null; `)}${command}\n`;
    let argv: string[];
    if (sandboxed) {
      argv = await sandbox.wrap({
        command: script,
        cwd: r.cwd,
        writable: [...policy.writable, this.o.stateDir],
        denyRead: policy.denyRead,
        allowedDomains: policy.allowedDomains,
        signal: r.signal,
      });
    } else argv = ['/bin/bash', '-c', script];
    try {
      const result = yield* runInPty(argv, {
        cwd: r.cwd,
        env: this.o.env,
        timeoutMs: r.timeoutMs,
        signal: r.signal,
        end,
      });
      let cwd: string | null = null;
      try {
        cwd = readFileSync(cwdFile, 'utf8').trim() || null;
      } catch {
        cwd = null;
      }
      return { ...result, cwd, sandboxed };
    } finally {
      rmSync(cwdFile, { force: true });
      if (sandboxed) sandbox.afterCommand();
    }
  }
}

/** Unsandboxed execution for tests and tools that need no policy. */
export function plainShell(env: NodeJS.ProcessEnv, stateDir: string): ShellExecutor {
  return new SessionShell({
    env,
    sandbox: null,
    stateDir,
    policy: () => ({
      sandboxed: false,
      excludedCommands: [],
      writable: [],
      denyRead: [],
      allowedDomains: [],
    }),
  });
}
