import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import type { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import path from 'node:path';

export interface SandboxStatus {
  available: boolean;
  /** Why not, in words, when unavailable. */
  reason: string | null;
}

export interface SandboxRequest {
  command: string;
  cwd: string;
  /** Folders the command may write: the project, its temp dir, the session folder. */
  writable: readonly string[];
  /** Paths inside `writable` that stay read-only (the protected paths), symlinks resolved by the runtime. */
  denyWrite?: readonly string[];
  /** Paths it may not read (secrets, Read deny rules). */
  denyRead: readonly string[];
  /** Domains reachable through the sandbox's proxy; everything else is refused. */
  allowedDomains: readonly string[];
  signal?: AbortSignal;
  /**
   * False for a long-lived shell: its domains are admitted only while one of its commands runs, each
   * taking a lease (`leaseDomains`), not for as long as the shell lives.
   */
  holdDomains?: boolean;
}

/** Paths no sandboxed command may read, whatever the settings. */
export function secretPaths(home = homedir(), projectRoot?: string): string[] {
  const paths = [
    '.ssh',
    '.aws',
    '.gnupg',
    '.config/gcloud',
    '.kube',
    '.docker/config.json',
    '.netrc',
    '.npmrc',
    '.pypirc',
    '.git-credentials',
  ].map((p) => path.join(home, p));
  if (projectRoot) paths.push(path.join(projectRoot, '**', '.env*'));
  return paths;
}

type SandboxManagerT = typeof SandboxManager;

/**
 * Runs Bash commands inside `@anthropic-ai/sandbox-runtime` (bubblewrap + socat + seccomp on Linux,
 * Seatbelt on macOS): writes only where allowed, secrets unreadable, network only through a proxy
 * that admits the allowed domains. Loaded on first use; when it cannot start, says why.
 */
export interface SandboxServiceOptions {
  /** Where bubblewrap is, when not on PATH (`CARAPACE_BWRAP`). */
  bwrapPath?: string | undefined;
}

/** Just enough environment to start the probe; nothing of the user's. */
function sanitizedPath(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
}

/** Runs argv to its end; exit code and what it printed on stderr. */
function runOnce(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const [file, ...args] = argv;
    if (!file) {
      resolve({ code: null, stderr: 'nothing to run' });
      return;
    }
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 15_000 });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (e) => resolve({ code: null, stderr: e.message }));
    child.on('close', (code) => resolve({ code, stderr: stderr.trim() }));
  });
}

export class SandboxService {
  private manager: SandboxManagerT | null = null;
  private starting: Promise<SandboxManagerT> | null = null;
  private domains = '';
  private cachedStatus: SandboxStatus | null = null;
  private checking: Promise<SandboxStatus> | null = null;
  /** Allowed domains of each sandboxed command still running. */
  private readonly running = new Map<number, string[]>();
  private nextCommand = 0;

  /** What `close` ends first: the long-lived shells started in this sandbox (sandbox-shell.ts). */
  private readonly users = new Set<() => Promise<void>>();
  private wanted = false;
  private readonly waiting: ((s: SandboxStatus) => void)[] = [];

  constructor(private readonly options: SandboxServiceOptions = {}) {}

  /** Registers something to end when the sandbox closes; returns the way to unregister it. */
  track(close: () => Promise<void>): () => void {
    this.users.add(close);
    return () => this.users.delete(close);
  }

  /**
   * The status check under way, or wanted (`checkWhenNeeded`, then started now), or null: lets a
   * caller wait for the real status where it matters without starting a check nobody asked for.
   */
  get statusInFlight(): Promise<SandboxStatus> | null {
    if (this.cachedStatus) return null;
    if (this.checking) return this.checking;
    return this.wanted ? this.status() : null;
  }

  /**
   * Whether the sandbox can run here: the platform, its dependencies (bwrap, socat, ripgrep), and a
   * sandboxed `true` actually starting (user namespaces can be off even with bubblewrap installed).
   */
  status(): Promise<SandboxStatus> {
    if (this.cachedStatus) return Promise.resolve(this.cachedStatus);
    this.checking ??= this.check().then((s) => {
      this.cachedStatus = s;
      for (const notify of this.waiting.splice(0)) notify(s);
      return s;
    });
    return this.checking;
  }

  /**
   * The status is wanted, but not yet: the check (loading the runtime, a sandboxed `true`) starts
   * when someone first needs it — `status()`, or a permission decision through `statusInFlight` —
   * instead of competing with start-up. Resolves with the status once checked.
   */
  checkWhenNeeded(): Promise<SandboxStatus> {
    if (this.cachedStatus) return Promise.resolve(this.cachedStatus);
    this.wanted = true;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private async check(): Promise<SandboxStatus> {
    try {
      const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
      if (!SandboxManager.isSupportedPlatform())
        return { available: false, reason: `the OS sandbox does not support ${process.platform}` };
      const bwrap = this.options.bwrapPath;
      if (bwrap) {
        try {
          accessSync(bwrap, constants.X_OK);
        } catch {
          return { available: false, reason: `bubblewrap was not found at ${bwrap}` };
        }
      }
      const deps = SandboxManager.checkDependencies();
      const missing = deps.errors.filter((e) => !(bwrap && /bwrap|bubblewrap/i.test(e)));
      if (missing.length > 0)
        return { available: false, reason: `the OS sandbox cannot start: ${missing.join('; ')}` };
      const probe = await this.wrap({
        command: 'true',
        cwd: homedir(),
        writable: [],
        denyRead: [],
        allowedDomains: [],
      });
      const run = await runOnce(probe.argv, sanitizedPath()).finally(probe.release);
      if (run.code !== 0)
        return {
          available: false,
          reason: `the OS sandbox cannot start here: ${run.stderr || `exit code ${String(run.code)}`}`,
        };
      return { available: true, reason: null };
    } catch (error) {
      return { available: false, reason: `the OS sandbox could not start: ${(error as Error).message}` };
    }
  }

  /** What the proxy admits right now: the union over the sandboxed commands still running. */
  get allowedDomainsNow(): string[] {
    return this.domains === '' ? [] : this.domains.split(',');
  }

  /** The last known status without waiting (null before the first check). */
  get knownStatus(): SandboxStatus | null {
    return this.cachedStatus;
  }

  private async start(): Promise<SandboxManagerT> {
    if (this.manager) return this.manager;
    this.starting ??= (async () => {
      const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
      await SandboxManager.initialize({
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { denyRead: secretPaths(), allowWrite: [], denyWrite: [] },
        ...(this.options.bwrapPath ? { bwrapPath: this.options.bwrapPath } : {}),
      });
      this.manager = SandboxManager;
      return SandboxManager;
    })();
    return this.starting;
  }

  /**
   * The argv that runs `command` inside the sandbox, and what to call when it has ended. Only the
   * argv: on Linux and macOS the proxy settings are baked into it, and the environment the runtime
   * returns alongside is the host's own (secrets included), so the caller runs it with its own
   * sanitised environment.
   */
  async wrap(req: SandboxRequest): Promise<{ argv: string[]; release: () => void }> {
    const manager = await this.start();
    const domains = [...new Set(req.allowedDomains)].sort();
    const id = ++this.nextCommand;
    if (req.holdDomains !== false) this.running.set(id, domains);
    this.applyDomains(manager);
    let wrapped;
    try {
      wrapped = await manager.wrapWithSandboxArgv(
        req.command,
        '/bin/bash',
        {
          network: { allowedDomains: domains, deniedDomains: [] },
          filesystem: {
            allowWrite: [...req.writable],
            denyRead: [...req.denyRead],
            denyWrite: [...(req.denyWrite ?? [])],
          },
        },
        req.signal,
        req.cwd,
      );
    } catch (error) {
      this.running.delete(id);
      this.applyDomains(manager);
      throw error;
    }
    let released = false;
    return {
      argv: wrapped.argv,
      release: () => {
        if (released) return;
        released = true;
        this.running.delete(id);
        this.applyDomains(manager);
        manager.cleanupAfterCommand();
      },
    };
  }

  /**
   * Admits `domains` through the proxy until the returned function is called: one command of a
   * long-lived shell (see `holdDomains`). Same union rule as a command wrapped on its own.
   */
  leaseDomains(domains: readonly string[]): () => void {
    const manager = this.manager;
    if (!manager) return () => undefined;
    const id = ++this.nextCommand;
    this.running.set(id, [...new Set(domains)].sort());
    this.applyDomains(manager);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.delete(id);
      if (this.manager) this.applyDomains(this.manager);
    };
  }

  /**
   * The runtime's proxy has one allowlist for the whole process, applied to commands already
   * running. So it is the union of what the commands running now may reach: a command started for
   * one project keeps its domains while another project's command runs, and a domain is dropped as
   * soon as no running command needs it (never "whichever command started last").
   */
  private applyDomains(manager: SandboxManagerT): void {
    const union = [...new Set([...this.running.values()].flat())].sort();
    const key = union.join(',');
    if (key === this.domains) return;
    const config = manager.getConfig();
    if (config) manager.updateConfig({ ...config, network: { ...config.network, allowedDomains: union } });
    this.domains = key;
  }

  async close(): Promise<void> {
    await Promise.all([...this.users].map((close) => close()));
    this.users.clear();
    if (this.manager) await this.manager.reset();
    this.manager = null;
    this.starting = null;
    this.domains = '';
    this.cachedStatus = null;
    this.checking = null;
  }
}
