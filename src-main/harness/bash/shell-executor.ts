import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { analyzeCommand } from './analyze';
import { insideNestedRepository, runsOutsideSandbox } from './excluded';
import { GitGuard } from './git-guard';
import { newEndMarker, wrapWithEndMarker } from './end-marker';
import { runInPty, type PtyResult } from './pty-runner';
import type { SandboxService } from './sandbox';
import { mountTargets, sandboxFingerprint } from './sandbox-fingerprint';
import { SandboxShellProcess, serverScript } from './sandbox-shell';

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
  /** Ends what the executor keeps running between commands (the long-lived sandboxed shell). */
  close?(): Promise<void>;
  /**
   * Keeps what runs between commands for the caller's work (a submit): when the last hold ends and
   * no command runs, it ends at once. Returns the way to let go.
   */
  hold?(): () => void;
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
  /**
   * Keep one sandboxed shell for the session's commands (sandbox-shell.ts) instead of a sandbox per
   * command. On unless turned off (`CARAPACE_SANDBOX_SHELL=0` turns it off for a process).
   */
  longLived?: boolean;
  /** How long the long-lived shell may sit unused before it ends, held or not (default 15 s). */
  idleMs?: number;
}

/**
 * The long-lived shell's sandbox keeps the runtime's empty placeholder files for missing protected
 * paths (`.vscode`, `.bashrc` in the project) for as long as it lives: stray files in the person's
 * project. So it lives only while the agent works, and this long at most without a command.
 */
const IDLE_MS = 15_000;

interface LongLivedShell {
  shell: SandboxShellProcess;
  /** What its sandbox was made from (sandbox-fingerprint.ts), checked before every command. */
  inputs: Parameters<typeof sandboxFingerprint>[0];
  mounts: string[];
  fingerprint: string;
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
 * A command's run watched by the git guard (when the policy names repositories to watch): the guard's
 * last sweep comes after the command is over, and what it moved aside goes into the result's notes.
 */
async function* guardedRun(
  policy: ShellPolicy,
  sandboxed: boolean,
  run: () => AsyncGenerator<string, PtyResult & { cwd: string | null }>,
): AsyncGenerator<string, ShellRunResult> {
  const guard =
    sandboxed && policy.guardRoots && policy.quarantineDir
      ? new GitGuard(policy.guardRoots, policy.quarantineDir)
      : null;
  try {
    const result = yield* run();
    const notes = guard?.finish() ?? [];
    return {
      ...result,
      cwd: validDirectory(result.cwd),
      sandboxed,
      ...(notes.length > 0 ? { notes } : {}),
    };
  } finally {
    guard?.finish();
  }
}

/**
 * Runs commands in a PTY, inside the sandbox when the policy says so, and reports the directory each
 * ends in so the next command starts there (a `cd` persists, as in a terminal).
 */
export class SessionShell implements ShellExecutor {
  private longLived: LongLivedShell | null = null;
  private starting: Promise<LongLivedShell | null> | null = null;
  private closed = false;
  /** Submits under way (see `hold`). */
  private holds = 0;
  /** Some submit has held the shell: from then on it ends when the last hold and command end. */
  private held = false;
  /** Sandboxed commands under way (in the long-lived shell or one of their own). */
  private active = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly o: ShellExecutorOptions) {}

  hold(): () => void {
    this.holds++;
    this.held = true;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.holds--;
      this.whenUnused();
    };
  }

  /**
   * Nothing runs a command now: the shell ends at once when no submit holds it (the agent's work is
   * over; a background command that outlived its submit ends it when it ends), else after `idleMs`
   * as a safety net (a submit that never ended, a caller that never holds).
   */
  private whenUnused(): void {
    if (this.active > 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.longLived) return;
    if (this.held && this.holds === 0) {
      this.retire();
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.active === 0) this.retire();
    }, this.o.idleMs ?? IDLE_MS);
    this.idleTimer.unref();
  }

  /** Ends the long-lived shell (the next command starts another); its exit removes the placeholders. */
  private retire(): void {
    const current = this.longLived;
    if (!current || current.shell.claimed) return;
    this.longLived = null;
    void current.shell.close();
  }

  private get useLongLived(): boolean {
    // Linux only: the clean-up between commands reads bubblewrap's PID namespace from /proc.
    return (
      (this.o.longLived ?? true) &&
      process.platform === 'linux' &&
      process.env['CARAPACE_SANDBOX_SHELL'] !== '0'
    );
  }

  /**
   * The session's sandboxed shell for this command if it can take it: started on first use, replaced
   * when what its sandbox was made from changed (settings, protected paths, matches of deny globs),
   * restarted when it died. Null: run in a sandbox of its own (busy with another command, cannot
   * be fingerprinted, or did not start).
   */
  private async shellFor(
    policy: ShellPolicy,
    sandbox: SandboxService,
    cwd: string,
  ): Promise<SandboxShellProcess | null> {
    if (!this.useLongLived || this.closed) return null;
    const inputs = {
      writable: policy.writable,
      denyWrite: policy.denyWrite ?? [],
      denyRead: policy.denyRead,
      allowedDomains: policy.allowedDomains,
    };
    for (;;) {
      if (this.starting) await this.starting;
      const current = this.longLived;
      if (current && current.shell.alive) {
        const now = sandboxFingerprint(inputs, current.mounts);
        if (now !== null && now === current.fingerprint) {
          if (!current.shell.claim()) return null;
          if (await current.shell.whenReady()) return current.shell;
          current.shell.release();
          continue;
        }
      }
      // Made from something else while another command still runs in it: that one finishes there,
      // this one gets a sandbox of its own, and the next replaces the shell.
      if (current?.shell.alive && current.shell.claimed) return null;
      // Gone, or made from something else: a new one.
      if (current) {
        this.longLived = null;
        void current.shell.close();
      }
      if (sandboxFingerprint(inputs) === null) return null;
      // A shell that cannot start is no error here: the command gets a sandbox of its own, which
      // reports what is wrong if it cannot start either.
      this.starting ??= this.startShell(policy, inputs, sandbox, cwd)
        .catch(() => null)
        .finally(() => (this.starting = null));
      const started = await this.starting;
      if (!started) return null;
    }
  }

  private async startShell(
    policy: ShellPolicy,
    inputs: LongLivedShell['inputs'],
    sandbox: SandboxService,
    cwd: string,
  ): Promise<LongLivedShell | null> {
    const startToken = `CARAPACE_READY_${randomUUID().replace(/-/g, '')}`;
    const wrapped = await sandbox.wrap({
      command: serverScript(startToken),
      cwd,
      writable: policy.writable,
      denyWrite: policy.denyWrite ?? [],
      denyRead: policy.denyRead,
      allowedDomains: policy.allowedDomains,
      holdDomains: false,
    });
    const shell = await SandboxShellProcess.start(wrapped.argv, {
      cwd,
      env: this.o.env,
      release: wrapped.release,
      startToken,
    });
    if (!shell) return null;
    const mounts = mountTargets(wrapped.argv);
    // Taken once bubblewrap has made its mount points: what later commands are compared with.
    const fingerprint = sandboxFingerprint(inputs, mounts);
    if (fingerprint === null || this.closed) {
      await shell.close();
      return null;
    }
    this.longLived = { shell, inputs, mounts, fingerprint };
    // Closing the sandbox (the app or `-p` ending) ends the shell too.
    const untrack = sandbox.track(() => shell.close());
    void shell.whenGone().then(untrack);
    return this.longLived;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await this.starting;
    const current = this.longLived;
    this.longLived = null;
    await current?.shell.close();
  }

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
    const box: SandboxService | null = sandboxed ? sandbox : null;
    if (!box) return yield* this.runOnce(command, r, { policy, sandboxed, prelude, end });
    this.active++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      const longLived = await this.shellFor(policy, box, r.cwd);
      if (!longLived) return yield* this.runOnce(command, r, { policy, sandboxed, prelude, end });
      // The proxy admits the session's domains while this command runs, as for a sandbox of its own.
      const lease = box.leaseDomains(policy.allowedDomains);
      try {
        return yield* guardedRun(policy, sandboxed, () =>
          longLived.exec(wrapWithEndMarker(end, command, prelude, { ack: false }), {
            cwd: r.cwd,
            timeoutMs: r.timeoutMs,
            signal: r.signal,
            end,
            ...(r.keepChars !== undefined ? { keepChars: r.keepChars } : {}),
          }),
        );
      } finally {
        lease();
        longLived.release();
      }
    } finally {
      this.active--;
      this.whenUnused();
    }
  }

  /** One command in a process (and, when sandboxed, a sandbox) of its own. */
  private async *runOnce(
    command: string,
    r: ShellRunOptions,
    c: { policy: ShellPolicy; sandboxed: boolean; prelude: string; end: ReturnType<typeof newEndMarker> },
  ): AsyncGenerator<string, ShellRunResult> {
    const { policy, sandboxed, prelude, end } = c;
    const sandbox = this.o.sandbox;
    const script = wrapWithEndMarker(end, command, prelude);
    let argv = ['/bin/bash', '-c', script];
    let release: () => void = () => undefined;
    if (sandboxed && sandbox) {
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
    try {
      return yield* guardedRun(policy, sandboxed, () =>
        runInPty(argv, {
          cwd: r.cwd,
          env: this.o.env,
          timeoutMs: r.timeoutMs,
          signal: r.signal,
          end,
          ...(r.keepChars !== undefined ? { keepChars: r.keepChars } : {}),
        }),
      );
    } finally {
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
