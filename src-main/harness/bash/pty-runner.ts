import type { IPty } from 'node-pty';

export interface PtyResult {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
}

export interface PtyOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  cols?: number;
  rows?: number;
}

const KILL_GRACE_MS = 2000;

const ANSI =
  // eslint-disable-next-line no-control-regex -- terminal escape sequences are exactly what we strip
  /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]/g;

/** Terminal output as plain text for the model: no escape sequences, \n line ends. */
export function plainText(raw: string): string {
  return raw
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r(?!\n)/g, '\n');
}

/** Kills a process group: a command's children must not outlive it. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * The end-of-command handshake. node-pty can lose the last few KB of output when a process exits
 * while output is still in flight (it stops reading 200 ms after the exit, or on the first EIO). So
 * a command run with a marker prints `<marker>:<status>;` when it ends and then waits on its
 * terminal's input: everything before the marker has been read by the time we see it, and only
 * then do we release the shell with a newline.
 */
export interface EndMarker {
  /** Printed by the script, then `:<status>;`. Random per run, so output cannot fake it. */
  marker: string;
}

/** Shell lines that print the marker with the exit status on exit, and wait to be released. */
export function endMarkerTrap(m: EndMarker, before = ''): string {
  // Split in two so that an xtrace of the trap cannot print the marker followed by `:<digits>;`.
  const half = Math.floor(m.marker.length / 2);
  return `__carapace_end() { __carapace_status=$?; ${before}printf '%s%s:%d;' '${m.marker.slice(0, half)}' '${m.marker.slice(half)}' "$__carapace_status"; read -r -t 10 __carapace_ack 2>/dev/null; exit "$__carapace_status"; }\ntrap __carapace_end EXIT\n`;
}

/**
 * Runs argv in a pseudo-terminal (so programs behave as in a terminal), yielding output as it comes.
 * On timeout or abort the whole process group gets SIGTERM, then SIGKILL.
 */
export async function* runInPty(
  argv: readonly string[],
  o: PtyOptions & { end?: EndMarker },
): AsyncGenerator<string, PtyResult> {
  const pty = await import('node-pty');
  const [file, ...args] = argv;
  if (!file) throw new Error('Nothing to run.');
  const term: IPty = pty.spawn(file, args, {
    name: 'xterm-256color',
    cwd: o.cwd,
    env: o.env,
    cols: o.cols ?? 200,
    rows: o.rows ?? 50,
  });
  const state = {
    queue: [] as string[],
    wake: null as (() => void) | null,
    exit: null as number | null,
    exited: false,
    timedOut: false,
    aborted: false,
    /** The marker was seen: output is complete, the status known. */
    ended: false,
  };
  const marker = o.end?.marker ?? null;
  let output = '';
  let streamed = 0;
  const push = (upTo: number) => {
    if (upTo > streamed) state.queue.push(output.slice(streamed, upTo));
    streamed = Math.max(streamed, upTo);
  };
  /** Where the output ends: before the marker once seen, or before what could be its beginning. */
  const scan = (): number => {
    if (marker === null) return output.length;
    const at = output.indexOf(marker, Math.max(0, streamed - marker.length));
    if (at >= 0) {
      const m = /^:(\d+);/.exec(output.slice(at + marker.length));
      if (m) {
        state.exit = Number(m[1]);
        state.ended = true;
        output = output.slice(0, at);
        // Release the shell waiting in its exit trap.
        term.write('\r');
      }
      return at;
    }
    for (let k = Math.min(marker.length - 1, output.length); k > 0; k--)
      if (output.endsWith(marker.slice(0, k))) return output.length - k;
    return output.length;
  };
  const dataSub = term.onData((d) => {
    if (state.ended) return;
    output += d;
    push(scan());
    state.wake?.();
  });
  const exitSub = term.onExit((e) => {
    if (!state.ended) {
      state.exit = e.exitCode;
      push(output.length);
    }
    state.exited = true;
    state.wake?.();
  });
  const stop = () => {
    killGroup(term.pid, 'SIGTERM');
    setTimeout(() => {
      if (!state.exited) killGroup(term.pid, 'SIGKILL');
    }, KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => {
    state.timedOut = true;
    stop();
  }, o.timeoutMs);
  const onAbort = () => {
    state.aborted = true;
    stop();
  };
  o.signal.addEventListener('abort', onAbort, { once: true });
  if (o.signal.aborted) onAbort();
  try {
    while (!state.exited || state.queue.length > 0) {
      const next = state.queue.shift();
      if (next !== undefined) {
        yield plainText(next);
        continue;
      }
      await new Promise<void>((resolve) => (state.wake = resolve));
      state.wake = null;
    }
    return {
      output: plainText(output),
      exitCode: state.exit,
      timedOut: state.timedOut,
      aborted: state.aborted,
    };
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener('abort', onAbort);
    dataSub.dispose();
    exitSub.dispose();
    if (!state.exited) killGroup(term.pid, 'SIGKILL');
  }
}
