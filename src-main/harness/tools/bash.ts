import { spawn } from 'node:child_process';
import { z } from 'zod';
import { analyzeCommandSync } from '../bash/analyze';
import { bashParserReady } from '../bash/tree-sitter';
import description from './prompts/bash.md?raw';
import { buildTool, type ToolOutput, type ToolProgress } from './tool';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
const KILL_GRACE_MS = 2000;

const inputSchema = z.strictObject({
  command: z.string().min(1).describe('The command to run'),
  description: z.string().optional().describe('What the command does, in five to ten words'),
  timeout: z
    .number()
    .int()
    .positive()
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe('Timeout in milliseconds (max 600000)'),
  run_in_background: z.boolean().optional().describe('Run as a background task'),
});

function isProvablyReadOnly(command: string): boolean {
  return bashParserReady() && analyzeCommandSync(command).readOnly;
}

/** Kills the whole process group: a shell's children must not outlive it. */
function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Bash, run by a plain child process in the session's working directory. Commands the model runs get
 * a sanitized environment and a process group that is killed whole on timeout or abort.
 */
export const BashTool = buildTool({
  name: 'Bash',
  description,
  inputSchema,
  // Read-only (and so safe to run beside others) only when the analysis proves it; until the parser
  // has loaded, nothing is.
  isReadOnly: (input) => isProvablyReadOnly(input.command),
  isConcurrencySafe: (input) => isProvablyReadOnly(input.command),
  isDestructive: (input) => !isProvablyReadOnly(input.command),
  async *call(input, ctx): AsyncGenerator<ToolProgress, ToolOutput> {
    if (input.run_in_background === true) {
      return {
        content:
          'run_in_background is not available in this version; run the command in the foreground, with a timeout.',
        isError: true,
      };
    }
    const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
    const child = spawn('/bin/bash', ['-c', input.command], {
      cwd: ctx.cwd,
      env: ctx.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const queue: string[] = [];
    let output = '';
    // Mutated by callbacks: an object, so the loop below re-reads it (no stale narrowing).
    const state: { wake: (() => void) | null; done: boolean; killed: boolean; timedOut: boolean } = {
      wake: null,
      done: false,
      killed: false,
      timedOut: false,
    };
    const push = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      queue.push(text);
      state.wake?.();
    };
    child.stdout.on('data', push);
    child.stderr.on('data', push);
    const stop = (why: 'timeout' | 'abort') => {
      if (why === 'timeout') state.timedOut = true;
      state.killed = true;
      killTree(child.pid, 'SIGTERM');
      setTimeout(() => killTree(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('abort');
    ctx.abortSignal.addEventListener('abort', onAbort, { once: true });
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', (error) => {
        output += `\n${error.message}`;
        resolve(127);
      });
      child.once('close', (code) => resolve(code));
    });
    void exited.then(() => {
      state.done = true;
      state.wake?.();
    });
    try {
      while (!state.done || queue.length > 0) {
        const next = queue.shift();
        if (next !== undefined) {
          yield { text: next };
          continue;
        }
        await new Promise<void>((resolve) => (state.wake = resolve));
        state.wake = null;
      }
      const code = await exited;
      if (ctx.abortSignal.aborted)
        return {
          content: `${output}\n[Command interrupted]`.trim(),
          isError: true,
          display: { kind: 'bash', exitCode: code, timedOut: false },
        };
      const trailer = state.timedOut
        ? `\n[Command timed out after ${timeoutMs} ms; the process tree was killed]`
        : code !== 0
          ? `\n[Exit code ${String(code)}]`
          : '';
      const body =
        output.length === 0 && trailer === '' ? '(no output)' : output.replace(/\n$/, '') + trailer;
      return {
        content: body,
        isError: state.timedOut || code !== 0,
        display: { kind: 'bash', exitCode: code, timedOut: state.timedOut },
      };
    } finally {
      clearTimeout(timer);
      ctx.abortSignal.removeEventListener('abort', onAbort);
      if (!state.done && !state.killed) killTree(child.pid, 'SIGKILL');
    }
  },
});
