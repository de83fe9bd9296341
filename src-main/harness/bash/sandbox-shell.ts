import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as NodePty from 'node-pty';
import type { IPty } from 'node-pty';
import { findEndMarker, type EndMarker } from './end-marker';
import { OutputBuffer } from './output-buffer';
import { plainText, PlainTextStream } from './plain-text';
import { killGroup, type PtyResult } from './pty-runner';

/**
 * One long-lived sandboxed shell: bubblewrap starts once (its ~30–200 ms paid once per session and
 * policy) and each command is a fresh `/bin/bash -c` inside it, so a command's env, traps, fds and
 * shell options die with it, as when every command had its own sandbox. Between commands the server
 * kills every process the command left in the sandbox's PID namespace (a background job cannot
 * outlive its command, as before, when the namespace ended with it) and resets the terminal's modes.
 *
 * The control channel: the host writes one line per command to the terminal, `<token> <file>`; the
 * file (in a folder only the host can write) holds the cwd and the script. When the command is done
 * and the sandbox is clean the server prints the token, and only then is the shell ready for the next
 * command. Output from the command never counts as that: it cannot know the next token, which is
 * random per command and never on a command line or in the environment. Cancelling kills the
 * command's processes from the host (all processes under the sandbox but the shell's own), not the
 * shell; if it does not settle, the whole shell goes and the next command starts a new one.
 */

const COLS = 200;
const ROWS = 50;
const KILL_GRACE_MS = 2000;
/** How long the shell may take to come back after a command was killed before it is replaced. */
const SETTLE_MS = KILL_GRACE_MS + 3000;
const DEFAULT_KEEP_CHARS = 16 * 1024 * 1024;

/** The server loop, run by `/bin/bash -c` inside the sandbox. `READY` is the start token. */
export function serverScript(startToken: string): string {
  const half = Math.floor(startToken.length / 2);
  return [
    // Everything running now is the sandbox's own (bwrap's init, the proxy bridges, this shell).
    `__keep=' '; for __p in /proc/[0-9]*; do __keep+="\${__p#/proc/} "; done`,
    `__reset() { stty sane -echo cols ${COLS} rows ${ROWS} 2>/dev/null; }`,
    // The shell's depth among nested PID namespaces: its NSpid line has one number per level.
    `__depth=1; mapfile -t __ss < /proc/self/status; for __l in "\${__ss[@]}"; do ` +
      `[[ $__l == NSpid:* ]] && { __a=(\${__l#NSpid:}); __depth=\${#__a[@]}; }; done`,
    // Kill what a command left behind. /proc numbers processes as bwrap's namespace does, while this
    // shell may sit in a nested one (the seccomp helper's): the number to kill is the one at the
    // shell's level of the NSpid line (deeper levels are a command's own namespaces; a process with
    // no number there is outside the shell's namespace, not the command's). A zombie is skipped only
    // when it is one thread: a thread group whose main thread exited shows `Z` while its others run.
    // The host checks after this that nothing is left (see `leftovers`), so this is the fast path.
    `__reap() { local p l z th ns st a n=0 any; while (( n++ < 200 )); do any=; for p in /proc/[0-9]*; do p=\${p#/proc/}; ` +
      `[[ $__keep == *" $p "* ]] && continue; z=; th=; ns=; st=(); mapfile -t st 2>/dev/null < "/proc/$p/status"; ` +
      `for l in "\${st[@]}"; do case $l in State:*Z*) z=1;; Threads:*) th=\${l##*[[:space:]]};; ` +
      `NSpid:*) a=(\${l#NSpid:}); ns=\${a[__depth-1]};; esac; done; ` +
      `[[ -n $z && $th == 1 ]] && continue; [[ -z $ns ]] && continue; kill -9 "$ns" 2>/dev/null && any=1; done; ` +
      `[[ -z $any ]] && return; done; }`,
    `__reset`,
    `printf '%s%s\\n' '${startToken.slice(0, half)}' '${startToken.slice(half)}'`,
    `while IFS= read -r __req; do`,
    `  __tok=\${__req%% *}; __file=\${__req#* }; __dir=; __script=`,
    `  { IFS= read -r -d '' __dir; IFS= read -r -d '' __script; } < "$__file"`,
    // The shell's own report of a killed command ("Killed") goes nowhere; the command's stderr is fd 3.
    `  if cd -- "$__dir" 2>/dev/null; then { /bin/bash -c "$__script" 2>&3 3>&-; } 3>&2 2>/dev/null; __st=$?; ` +
      `else printf 'carapace: cannot enter %s\\n' "$__dir"; __st=1; fi`,
    `  __reap; __reset`,
    // The command's status too, for one that ended without its marker (its own EXIT trap, `kill $$`).
    `  printf '%s%s:R:%d\\n' "\${__tok:0:16}" "\${__tok:16}" "$__st"`,
    `done`,
  ].join('\n');
}

/** A process as /proc/<pid>/stat tells it: its parent, its start time, and whether any thread runs. */
function statOf(pid: string, proc = '/proc'): { ppid: number; start: string } | null {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // The name (in parentheses) may hold spaces and parentheses: the fields follow the last `)`.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), start: f[19] ?? '' };
  } catch {
    return null; // Gone meanwhile.
  }
}

/**
 * Every process under `pid` (not `pid` itself) with its start time (so a reused number is not taken
 * for the process that had it), from every process's parent in /proc/<pid>/stat: processes in
 * nested PID namespaces and thread groups whose main thread exited are host processes like any
 * other. Null if /proc cannot say (or `pid` is gone).
 */
export function processTree(pid: number): Map<number, string> | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  const children = new Map<number, { pid: number; start: string }[]>();
  let rootSeen = false;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const st = statOf(name);
    if (!st) continue;
    if (Number(name) === pid) rootSeen = true;
    const list = children.get(st.ppid) ?? [];
    list.push({ pid: Number(name), start: st.start });
    children.set(st.ppid, list);
  }
  if (!rootSeen) return null;
  const out = new Map<number, string>();
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    for (const c of children.get(p) ?? [])
      if (!out.has(c.pid)) {
        out.set(c.pid, c.start);
        stack.push(c.pid);
      }
  }
  return out;
}

/** Every process under `pid` (not `pid` itself); null if /proc cannot say. */
export function descendants(pid: number): Set<number> | null {
  const tree = processTree(pid);
  return tree ? new Set(tree.keys()) : null;
}

/** Some thread of the process still runs (a zombie leader's other threads count; a plain zombie not). */
export function stillRunning(pid: number, proc = '/proc'): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`${proc}/${pid}/task`);
  } catch {
    return false;
  }
  for (const t of tasks) {
    try {
      const stat = readFileSync(`${proc}/${pid}/task/${t}/stat`, 'utf8');
      const state = stat.charAt(stat.lastIndexOf(')') + 2);
      if (state !== 'Z' && state !== 'X') return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/**
 * The processes of one PID namespace with their start times, from its own /proc (`proc`); null if it
 * cannot be read.
 */
function namespaceProcesses(proc: string): Map<number, string> | null {
  let names: string[];
  try {
    names = readdirSync(proc);
  } catch {
    return null;
  }
  const out = new Map<number, string>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const st = statOf(name, proc);
    out.set(Number(name), st ? st.start : '');
  }
  return out;
}

/**
 * What one look at a PID namespace (`proc`, its own /proc) finds besides `keep`: something that runs;
 * only something unsure (a process gone between the listing and its stat, or a zombie: either about
 * to be reaped or a process that forks and exits to change its number); or nothing.
 */
export function namespaceLeftovers(
  proc: string,
  keep: ReadonlyMap<number, string>,
): 'running' | 'unsure' | 'clean' {
  const now = namespaceProcesses(proc);
  if (!now) return 'running';
  let unsure = false;
  for (const [pid, start] of now) {
    if (start !== '' && keep.get(pid) === start) continue;
    if (start !== '' && stillRunning(pid, proc)) return 'running';
    unsure = true;
  }
  return unsure ? 'unsure' : 'clean';
}

export interface ShellCommandOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  end: EndMarker;
  keepChars?: number;
}

interface RunState {
  end: EndMarker;
  queue: string[];
  wake: (() => void) | null;
  kept: OutputBuffer;
  stream: PlainTextStream;
  pending: string;
  ended: boolean;
  /** The command is over (marker, settled after a kill, or the shell died). */
  done: boolean;
  exit: number | null;
  cwd: string | null;
  timedOut: boolean;
  aborted: boolean;
}

export class SandboxShellProcess {
  private readonly term: IPty;
  private readonly dir: string;
  private token: string;
  /** Output not yet matched against the awaited token (only a tail that could start it). */
  private scan = '';
  private ready: Promise<boolean>;
  private markReady: (ok: boolean) => void = () => undefined;
  private run: RunState | null = null;
  /** The shell's own processes (pid to start time): all else in the sandbox is a command's. */
  private keep: Map<number, string> | null = null;
  /**
   * The sandbox's PID namespace as its own /proc shows it (seen through bwrap's init from the host),
   * and the shell's own processes in it: what the check between commands compares.
   */
  private nsProc: string | null = null;
  private keepNs: Map<number, string> | null = null;
  /** The check between commands is under way (see `settled`). */
  private checking = false;
  private dead = false;
  private closed = false;
  /** Taken by the one caller whose command runs next (see `claim`). */
  private taken = false;
  private requests = 0;

  private constructor(
    pty: typeof NodePty,
    argv: readonly string[],
    o: { cwd: string; env: NodeJS.ProcessEnv; release: () => void; startToken: string },
  ) {
    const [file, ...args] = argv;
    if (!file) throw new Error('Nothing to run.');
    this.dir = mkdtempSync(path.join(tmpdir(), 'carapace-shell-'));
    this.token = o.startToken;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.term = pty.spawn(file, args, {
      name: 'xterm-256color',
      cwd: o.cwd,
      env: o.env,
      cols: COLS,
      rows: ROWS,
    });
    this.term.onData((d) => this.onData(d));
    this.term.onExit((e) => {
      this.dead = true;
      const run = this.run;
      if (run && !run.done) {
        if (!run.ended) {
          this.emit(run, run.pending);
          run.pending = '';
          run.exit = e.exitCode;
        }
        this.finish(run);
      }
      this.markReady(false);
      o.release();
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  /**
   * Starts the shell from the sandbox's argv for `serverScript(startToken)` and waits until it is
   * ready; null if it did not come up (the caller then runs the command in a sandbox of its own).
   */
  static async start(
    argv: readonly string[],
    o: { cwd: string; env: NodeJS.ProcessEnv; release: () => void; startToken: string },
  ): Promise<SandboxShellProcess | null> {
    const pty = await import('node-pty');
    const shell = new SandboxShellProcess(pty, argv, o);
    const timer = setTimeout(() => shell.kill(), 15_000);
    const ok = await shell.ready;
    clearTimeout(timer);
    if (!ok) return null;
    // What runs in the sandbox now is its own: the shell, bwrap's init, the proxy bridges.
    shell.keep = processTree(shell.term.pid);
    // bwrap's init: the process under bwrap in a PID namespace of its own, PID 1 there.
    const init = [...(shell.keep?.keys() ?? [])].find(
      (p) => statOf(String(p))?.ppid === shell.term.pid && statOf('1', `/proc/${p}/root/proc`) !== null,
    );
    shell.nsProc = init === undefined ? null : `/proc/${init}/root/proc`;
    shell.keepNs = shell.nsProc ? namespaceProcesses(shell.nsProc) : null;
    // Without these nothing could tell a command's leftovers from the shell: no long-lived shell.
    if (!shell.keep || !shell.keepNs) {
      await shell.close();
      return null;
    }
    return shell;
  }

  get alive(): boolean {
    return !this.dead && !this.closed;
  }

  /**
   * Reserves the shell for one command: false while another command has it (the caller then runs in a
   * sandbox of its own). Released when that command's output is complete.
   */
  claim(): boolean {
    if (this.taken || !this.alive) return false;
    this.taken = true;
    return true;
  }

  release(): void {
    this.taken = false;
  }

  /** A command has the shell (or is waiting for it). */
  get claimed(): boolean {
    return this.taken;
  }

  /** Waits for the previous command's clean-up; false if the shell died meanwhile. */
  async whenReady(): Promise<boolean> {
    return (await this.ready) && this.alive;
  }

  private emit(run: RunState, raw: string): void {
    if (raw === '') return;
    run.kept.push(raw);
    const text = run.stream.push(raw);
    if (text === '') return;
    run.queue.push(text);
    // Passed on as it comes (a build's progress, a server's log), not only when the command ends.
    run.wake?.();
  }

  private finish(run: RunState): void {
    run.done = true;
    const rest = run.stream.end();
    if (rest !== '') run.queue.push(rest);
    run.wake?.();
  }

  /** The line the server prints when the command is over and the sandbox clean: `<token>:R:<status>`. */
  private readyLine(): RegExp {
    return new RegExp(`${this.token}:R:(\\d+)`);
  }

  private onData(d: string): void {
    const run = this.run;
    if (run && !run.ended) {
      run.pending += d;
      const found = findEndMarker(run.end, run.pending, 0);
      const over = this.readyLine().exec(run.pending);
      if (over && (found === null || over.index < found.at)) {
        // Over without its marker: what came before is all its output, the status is the shell's.
        this.emit(run, run.pending.slice(0, over.index));
        run.pending = '';
        run.ended = true;
        run.exit = Number(over[1]);
        this.scan = '';
        this.settled(run);
        return;
      }
      if (found === null) {
        // Hold back only a tail that could be the marker's (or the ready line's) beginning.
        let hold = 0;
        const ready = `${this.token}:R:`;
        for (
          let k = Math.min(Math.max(run.end.marker.length, ready.length) - 1, run.pending.length);
          k > 0;
          k--
        )
          if (run.pending.endsWith(run.end.marker.slice(0, k)) || run.pending.endsWith(ready.slice(0, k))) {
            hold = k;
            break;
          }
        // A ready line cut short holds everything from its token on (the status may still come).
        const cut = run.pending.lastIndexOf(ready);
        if (cut >= 0) hold = Math.max(hold, run.pending.length - cut);
        this.emit(run, run.pending.slice(0, run.pending.length - hold));
        run.pending = run.pending.slice(run.pending.length - hold);
        return;
      }
      if ('partial' in found) {
        this.emit(run, run.pending.slice(0, found.at));
        run.pending = run.pending.slice(found.at);
        return;
      }
      this.emit(run, run.pending.slice(0, found.at));
      d = run.pending.slice(found.at);
      run.pending = '';
      run.ended = true;
      run.exit = found.status;
      run.cwd = found.cwd;
      // Not over yet: only at the ready line, when the server has killed what the command left and
      // the host has checked that nothing is left (`settled`). Until then its jobs may still run.
    }
    // Between commands: only the token matters; what else comes (a killed job's last words) is dropped.
    this.scan += d;
    if (this.scan.includes(this.token)) {
      this.scan = '';
      this.settled(run);
    } else this.scan = this.scan.slice(-this.token.length);
  }

  private settled(run: RunState | null): void {
    if (!run) {
      this.markReady(true);
      return;
    }
    if (this.checking) return;
    this.checking = true;
    void this.clean().then((clean) => {
      this.checking = false;
      if (!clean) {
        // Something the command started outlived the server's clean-up (a nested PID namespace, a
        // thread group the clean-up cannot see, a new trick): the whole sandbox goes, and with its
        // PID namespace everything in it. The command is over when the shell has exited (onExit),
        // and the next command gets a new shell.
        this.closed = true;
        this.killSandbox();
        return;
      }
      this.run = null;
      if (!run.done) this.finish(run);
      this.markReady(true);
    });
  }

  /**
   * Nothing but the shell's own processes is left in the sandbox. Two looks: every process under
   * bubblewrap on the host, then the sandbox's PID namespace itself until it is seen clean twice in a
   * row (a process that forks and exits in a loop changes its number faster than one listing, but
   * there is always one of it in the namespace: it makes every look unsure, and the sandbox goes).
   */
  private async clean(): Promise<boolean> {
    if (this.leftovers() || !this.nsProc || !this.keepNs) return false;
    let clean = 0;
    for (let i = 0; i < 100; i++) {
      const seen = namespaceLeftovers(this.nsProc, this.keepNs);
      if (seen === 'running') return false;
      if (seen === 'clean') {
        if (++clean === 2) return true;
        continue;
      }
      clean = 0;
      // A zombie the clean-up made: bwrap's init reaps it in a moment.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return false;
  }

  private own(pid: number, start: string): boolean {
    return this.keep?.get(pid) === start;
  }

  /** Some process in the sandbox, not the shell's own, still runs (or /proc cannot say). */
  private leftovers(): boolean {
    const now = processTree(this.term.pid);
    if (!now || !this.keep) return true;
    for (const [pid, start] of now) if (!this.own(pid, start) && stillRunning(pid)) return true;
    return false;
  }

  /** Kills what the command started: every process in the sandbox but the shell's own. */
  private killCommand(signal: NodeJS.Signals): boolean {
    if (!this.keep) return false;
    const now = processTree(this.term.pid);
    if (!now) return false;
    for (const [pid, start] of now)
      if (!this.own(pid, start))
        try {
          process.kill(pid, signal);
        } catch {
          // Gone meanwhile.
        }
    return true;
  }

  /** Kills every process of the sandbox, bwrap's init (and so its PID namespace) among them. */
  private killSandbox(): void {
    for (const pid of processTree(this.term.pid)?.keys() ?? [])
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    this.kill();
  }

  /** Ends the whole shell (and everything in its sandbox). */
  kill(): void {
    if (this.dead) return;
    killGroup(this.term.pid, 'SIGKILL');
  }

  /** Resolves when the shell has ended, whatever ended it. */
  whenGone(): Promise<void> {
    if (this.dead) return Promise.resolve();
    return new Promise((resolve) => this.term.onExit(() => resolve()));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.dead) return;
    const exited = new Promise<void>((resolve) => this.term.onExit(() => resolve()));
    this.kill();
    await exited;
  }

  /** Runs one script (already wrapped with its end marker, no ack) in the shell; one at a time. */
  async *exec(
    script: string,
    o: ShellCommandOptions,
  ): AsyncGenerator<string, PtyResult & { cwd: string | null }> {
    if (!(await this.ready) || this.run || !this.alive) throw new Error('The sandboxed shell is not ready.');
    const run: RunState = {
      end: o.end,
      queue: [],
      wake: null,
      kept: new OutputBuffer(o.keepChars ?? DEFAULT_KEEP_CHARS),
      stream: new PlainTextStream(),
      pending: '',
      ended: false,
      done: false,
      exit: null,
      cwd: null,
      timedOut: false,
      aborted: false,
    };
    this.run = run;
    this.token = `CARAPACE_READY_${randomUUID().replace(/-/g, '')}`;
    this.scan = '';
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    const file = path.join(this.dir, String(++this.requests));
    try {
      writeFileSync(file, `${o.cwd}\0${script}\0`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      // The request cannot be handed over: this shell is no use any more.
      this.kill();
      throw error;
    }
    this.term.write(`${this.token} ${file}\n`);

    const timers: NodeJS.Timeout[] = [];
    const stop = () => {
      // Without /proc's children lists the command cannot be told from the shell: the shell goes.
      if (!this.killCommand('SIGTERM')) {
        this.kill();
        return;
      }
      timers.push(
        setTimeout(() => {
          if (this.run === run) this.killCommand('SIGKILL');
        }, KILL_GRACE_MS).unref(),
        setTimeout(() => {
          if (this.run === run) this.kill();
        }, SETTLE_MS).unref(),
      );
    };
    const timer = setTimeout(() => {
      if (run.done) return;
      run.timedOut = true;
      stop();
    }, o.timeoutMs);
    const onAbort = () => {
      if (run.done) return;
      run.aborted = true;
      stop();
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    if (o.signal.aborted) onAbort();
    try {
      while (!run.done || run.queue.length > 0) {
        const next = run.queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => (run.wake = resolve));
        run.wake = null;
      }
      const killed = run.timedOut || run.aborted;
      return {
        output: plainText(run.kept.text()),
        exitCode: killed ? null : run.exit,
        timedOut: run.timedOut,
        aborted: run.aborted,
        cwd: run.cwd,
      };
    } finally {
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      // Left early (the consumer stopped reading): the command must not go on unseen.
      if (!run.done) {
        run.aborted = true;
        stop();
      }
      rmSync(file, { force: true });
    }
  }
}
