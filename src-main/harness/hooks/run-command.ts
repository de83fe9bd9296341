import { spawn } from 'node:child_process';
import { absolutePathEntries } from '../../platform/env';
import type { CommandHook } from './schema';
import { capOutput, parseOutputJson, type HandlerResult } from './output';

export interface CommandRunOptions {
  /** The folder the hook runs in (the session's cwd). */
  cwd: string;
  /** Its environment; CLAUDE_PROJECT_DIR is added. */
  env: NodeJS.ProcessEnv;
  projectDir: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Keeps at most a little over the cap in memory: a hook printing gigabytes must not fill the heap. */
function collector() {
  let text = '';
  let dropped = 0;
  // Enough for any JSON answer worth reading; the rest is only counted.
  const keep = 1_000_000;
  return {
    add(chunk: Buffer) {
      const s = chunk.toString('utf8');
      const room = keep - text.length;
      if (room >= s.length) text += s;
      else {
        text += s.slice(0, Math.max(0, room));
        dropped += s.length - Math.max(0, room);
      }
    },
    get full() {
      return text;
    },
    get capped() {
      return capOutput(text, text.length + dropped);
    },
  };
}

/**
 * Runs a command hook: `sh -c command`, the event JSON on stdin, CLAUDE_PROJECT_DIR in its
 * environment, in its own process group (killed whole at the timeout or when the signal aborts).
 * Exit 0: stdout is read as JSON when it starts with `{`; exit 2: a block, with stderr; any other
 * exit: a non-blocking error.
 */
export function runCommandHook(
  handler: CommandHook,
  input: object,
  o: CommandRunOptions,
): Promise<HandlerResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const out = collector();
    const err = collector();
    let settled = false;
    let timedOut = false;
    if (handler.shell === 'powershell')
      return resolve({
        status: 'error',
        exitCode: null,
        stdout: '',
        stderr: '',
        json: null,
        problem: 'shell "powershell" is not supported here',
        durationMs: 0,
      });
    const child = spawn(handler.shell === 'bash' ? 'bash' : 'sh', ['-c', handler.command], {
      cwd: o.cwd,
      // The person's own hook runs in the project folder: a relative PATH entry would run the
      // repository's program of the same name instead.
      env: {
        ...o.env,
        ...(o.env['PATH'] === undefined ? {} : { PATH: absolutePathEntries(o.env['PATH']) }),
        CLAUDE_PROJECT_DIR: o.projectDir,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      // A grandchild that left the group (setsid) may still hold stdout open, and 'close' waits for
      // every pipe: let go of our ends so the hook ends now, whatever it left behind.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, o.timeoutMs);
    const onAbort = () => killGroup();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (r: Omit<HandlerResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    child.stdout.on('data', (c: Buffer) => out.add(c));
    child.stderr.on('data', (c: Buffer) => err.add(c));
    // A hook that never reads its stdin closes the pipe under us: that is its choice, not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input));
    child.on('error', (error) =>
      finish({
        status: 'error',
        exitCode: null,
        stdout: '',
        stderr: '',
        json: null,
        problem: `could not start: ${error.message}`,
      }),
    );
    child.on('close', (code) => {
      const stdout = out.capped;
      const stderr = err.capped;
      if (timedOut || o.signal?.aborted)
        return finish({
          status: 'timeout',
          exitCode: code,
          stdout,
          stderr,
          json: null,
          problem: timedOut ? `timed out after ${o.timeoutMs / 1000} s and was stopped` : 'stopped',
        });
      const parsed = parseOutputJson(out.full);
      if (code === 2) return finish({ status: 'block', exitCode: 2, stdout, stderr, json: parsed.json });
      if (code === 0)
        return parsed.problem
          ? finish({ status: 'error', exitCode: 0, stdout, stderr, json: null, problem: parsed.problem })
          : finish({ status: 'ok', exitCode: 0, stdout, stderr, json: parsed.json });
      // Any other code fails open; valid JSON it printed still decides.
      const first = stderr.trim().split('\n')[0] ?? '';
      return finish({
        status: 'error',
        exitCode: code,
        stdout,
        stderr,
        json: parsed.json,
        problem: `exited with ${code ?? 'a signal'}${first ? `: ${first}` : ''}`,
      });
    });
  });
}
