import type { IPty } from 'node-pty';
import { findEndMarker, type EndMarker } from './end-marker';
import { OutputBuffer } from './output-buffer';
import { plainText, PlainTextStream } from './plain-text';

export { plainText } from './plain-text';

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
/** Output kept for the result; beyond it the head and tail (the model gets 30,000 characters anyway). */
const DEFAULT_KEEP_CHARS = 16 * 1024 * 1024;

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
 * Runs argv in a pseudo-terminal (so programs behave as in a terminal), yielding output as it comes,
 * as plain text. With an end marker (see end-marker.ts) the output is complete and the exit status
 * and final directory come from the script itself. On timeout or abort the whole process group gets
 * SIGTERM, then SIGKILL, and there is no exit code.
 */
export async function* runInPty(
  argv: readonly string[],
  o: PtyOptions & { end?: EndMarker; keepChars?: number },
): AsyncGenerator<string, PtyResult & { cwd: string | null }> {
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
    cwd: null as string | null,
    exited: false,
    timedOut: false,
    aborted: false,
    /** The marker was seen: output is complete, the status known. */
    ended: false,
  };
  const kept = new OutputBuffer(o.keepChars ?? DEFAULT_KEEP_CHARS);
  const stream = new PlainTextStream();
  const end = o.end ?? null;
  /** Received but not yet passed on: only ever what might be the start of the marker. */
  let pending = '';
  const emit = (raw: string) => {
    if (raw === '') return;
    kept.push(raw);
    const text = stream.push(raw);
    if (text !== '') state.queue.push(text);
  };
  const onData = (d: string) => {
    if (state.ended) return;
    if (!end) {
      emit(d);
      return;
    }
    pending += d;
    const found = findEndMarker(end, pending, 0);
    if (found === null) {
      // Hold back only a tail that could be the marker's beginning.
      let hold = 0;
      for (let k = Math.min(end.marker.length - 1, pending.length); k > 0; k--)
        if (pending.endsWith(end.marker.slice(0, k))) {
          hold = k;
          break;
        }
      emit(pending.slice(0, pending.length - hold));
      pending = pending.slice(pending.length - hold);
    } else if ('partial' in found) {
      emit(pending.slice(0, found.at));
      pending = pending.slice(found.at);
    } else {
      emit(pending.slice(0, found.at));
      pending = '';
      state.ended = true;
      state.exit = found.status;
      state.cwd = found.cwd;
      // Release the shell waiting in its exit trap.
      term.write('\r');
    }
  };
  const dataSub = term.onData((d) => {
    onData(d);
    state.wake?.();
  });
  const exitSub = term.onExit((e) => {
    if (!state.ended) {
      emit(pending);
      pending = '';
      state.exit = e.exitCode;
    }
    const rest = stream.end();
    if (rest !== '') state.queue.push(rest);
    state.exited = true;
    state.wake?.();
  });
  const stop = () => {
    killGroup(term.pid, 'SIGTERM');
    setTimeout(() => {
      if (!state.exited) killGroup(term.pid, 'SIGKILL');
    }, KILL_GRACE_MS).unref();
  };
  // Once the marker is in, the command has finished: a timeout or Stop after that kills nothing.
  const timer = setTimeout(() => {
    if (state.ended) return;
    state.timedOut = true;
    stop();
  }, o.timeoutMs);
  const onAbort = () => {
    if (state.ended) return;
    state.aborted = true;
    stop();
  };
  o.signal.addEventListener('abort', onAbort, { once: true });
  if (o.signal.aborted) onAbort();
  try {
    while (!state.exited || state.queue.length > 0) {
      const next = state.queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => (state.wake = resolve));
      state.wake = null;
    }
    // Killed: whatever status the shell's exit trap reported is not the command's.
    const killed = state.timedOut || state.aborted;
    return {
      output: plainText(kept.text()),
      exitCode: killed ? null : state.exit,
      timedOut: state.timedOut,
      aborted: state.aborted,
      cwd: state.cwd,
    };
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener('abort', onAbort);
    dataSub.dispose();
    exitSub.dispose();
    if (!state.exited) killGroup(term.pid, 'SIGKILL');
  }
}
