import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { analyzeCommand } from './analyze';
import { insideNestedRepository, runsOutsideSandbox } from './excluded';
import { GitGuard } from './git-guard';
import { newEndMarker, wrapWithEndMarker } from './end-marker';
import { runInPty } from './pty-runner';
import type { SandboxService } from './sandbox';

export interface ShellRunResult {
  output: string;
  /** Null when the command was killed (timeout, Stop) or its status is unknown. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** The working directory the command ended in (a `cd` carries over), or null if unknown. */
  cwd: string | null;
  sandboxed: boolean;
  /** What the git guard moved aside during the command, in words (see git-guard.ts). */
  notes?: string[];
}

export interface ShellRunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Output kept for the result (background tasks keep their own and pass 0). */
  keepChars?: number;
}

/** How the model's commands run: the capability the Bash tool gets through its context. */
export interface ShellExecutor {
  run(command: string, o: ShellRunOptions): AsyncGenerator<string, ShellRunResult>;
}

/** What the sandbox allows a session's commands, read fresh for every command (settings can change). */
export interface ShellPolicy {
  /** Run inside the OS sandbox (enabled in settings, and able to start here). */
  sandboxed: boolean;
  /** Commands that always run outside the sandbox (`sandbox.excludedCommands`). */
  excludedCommands: readonly string[];
  writable: readonly string[];
  /** Paths inside the writable ones that stay read-only: the protected paths (protected-paths.ts). */
  denyWrite?: readonly string[];
  /** Roots whose `.git` the git guard watches while a sandboxed command runs. */
  guardRoots?: readonly string[];
  /** Where the git guard moves what it takes away. */
  quarantineDir?: string;
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
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A directory the shell says it ended in: taken only if it is an absolute path to a directory. */
function validDirectory(dir: string | null): string | null {
  if (dir === null || !path.isAbsolute(dir)) return null;
  try {
    return statSync(dir).isDirectory() ? dir : null;
  } catch {
    return null;
  }
}

/**
 * Runs commands in a PTY, inside the sandbox when the policy says so, and reports the directory each
 * ends in so the next command starts there (a `cd` persists, as in a terminal).
 */
export class SessionShell implements ShellExecutor {
  constructor(private readonly o: ShellExecutorOptions) {}

  async *run(command: string, r: ShellRunOptions): AsyncGenerator<string, ShellRunResult> {
    const policy = this.o.policy();
    const sandbox = this.o.sandbox;
    // Enabled in settings, able to start here, and not a command line made only of excluded commands
    // (every part of it, by the same judgement the permission engine uses).
    const sandboxed =
      policy.sandboxed &&
      sandbox !== null &&
      !(
        policy.excludedCommands.length > 0 &&
        runsOutsideSandbox(await analyzeCommand(command), policy.excludedCommands) &&
        !insideNestedRepository(r.cwd, policy.guardRoots ?? [r.cwd])
      ) &&
      (await sandbox.status()).available;
    if (policy.tempDir) mkdirSync(policy.tempDir, { recursive: true, mode: 0o700 });
    const prelude = sandboxed && policy.tempDir ? `export TMPDIR=${quote(policy.tempDir)}\n` : '';
    const end = newEndMarker();
    const script = wrapWithEndMarker(end, command, prelude);
    let argv = ['/bin/bash', '-c', script];
    let release: () => void = () => undefined;
    if (sandboxed) {
      const wrapped = await sandbox.wrap({
        command: script,
        cwd: r.cwd,
        writable: policy.writable,
        denyWrite: policy.denyWrite ?? [],
        denyRead: policy.denyRead,
        allowedDomains: policy.allowedDomains,
        signal: r.signal,
      });
      argv = wrapped.argv;
      release = wrapped.release;
    }
    const guard =
      sandboxed && policy.guardRoots && policy.quarantineDir
        ? new GitGuard(policy.guardRoots, policy.quarantineDir)
        : null;
    try {
      const result = yield* runInPty(argv, {
        cwd: r.cwd,
        env: this.o.env,
        timeoutMs: r.timeoutMs,
        signal: r.signal,
        end,
        ...(r.keepChars !== undefined ? { keepChars: r.keepChars } : {}),
      });
      const notes = guard?.finish() ?? [];
      return {
        ...result,
        cwd: validDirectory(result.cwd),
        sandboxed,
        ...(notes.length > 0 ? { notes } : {}),
      };
    } finally {
      guard?.finish();
      release();
    }
  }
}

/** Unsandboxed execution for tests and tools that need no policy. */
export function plainShell(env: NodeJS.ProcessEnv): ShellExecutor {
  return new SessionShell({
    env,
    sandbox: null,
    policy: () => ({
      sandboxed: false,
      excludedCommands: [],
      writable: [],
      denyRead: [],
      allowedDomains: [],
    }),
  });
}
