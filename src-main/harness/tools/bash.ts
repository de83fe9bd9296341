import { z } from 'zod';
import { analyzeCommandSync } from '../bash/analyze';
import type { Classification } from '../bash/classify';
import { bashParserReady } from '../bash/tree-sitter';
import description from './prompts/bash.md?raw';
import { buildTool, type ToolOutput, type ToolProgress, type ToolUseContext } from './tool';
import { statSync } from 'node:fs';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;

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
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run as a background task; read its output with BashOutput'),
});

const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

/** Read-only by proof of the analysis; until the parser has loaded, nothing is. */
function readOnly(command: string): boolean {
  return bashParserReady() && analyzeCommandSync(command).readOnly;
}

/**
 * What the command does and whether it provably only reads, for the transcript's folding (which hides
 * only commands that are both); unknown until the parser has loaded.
 */
function shownKind(command: string): { category?: Classification; readOnly?: boolean } {
  if (!bashParserReady()) return {};
  const a = analyzeCommandSync(command);
  return { category: a.classification, readOnly: a.readOnly };
}

/** The directory to run in: the session's, unless it has been removed since (then the project root). */
function workingDirectory(ctx: ToolUseContext): { cwd: string; note: string } {
  try {
    if (statSync(ctx.cwd).isDirectory()) return { cwd: ctx.cwd, note: '' };
  } catch {
    // Gone: fall through.
  }
  return {
    cwd: ctx.projectRoot,
    note: `[The working directory ${ctx.cwd} no longer exists; ran in the project root ${ctx.projectRoot}]\n`,
  };
}

/** Parallel only when read-only and not changing directory (the cwd is state the next command sees). */
function concurrencySafe(command: string): boolean {
  if (!bashParserReady()) return false;
  const a = analyzeCommandSync(command);
  return (
    a.readOnly && !a.commands.some((c) => typeof c.core[0] === 'string' && CHANGES_DIRECTORY.has(c.core[0]))
  );
}

/**
 * Bash: each command runs in a PTY, inside the OS sandbox where it can start, in the session's working
 * directory (a `cd` carries over to the next command). Timeout 120 s by default, 600 s at most; the
 * process tree is killed on timeout or Stop.
 */
export const BashTool = buildTool({
  name: 'Bash',
  description,
  inputSchema,
  isReadOnly: (input) => readOnly(input.command),
  isConcurrencySafe: (input) => input.run_in_background !== true && concurrencySafe(input.command),
  isDestructive: (input) => !readOnly(input.command),
  async *call(input, ctx): AsyncGenerator<ToolProgress, ToolOutput> {
    const where = workingDirectory(ctx);
    // Whatever happens next, a vanished directory is not used again.
    const moved = (out: ToolOutput): ToolOutput =>
      where.cwd === ctx.cwd || out.contextModifier
        ? out
        : { ...out, contextModifier: (c) => ({ ...c, cwd: where.cwd }) };
    if (input.run_in_background === true) {
      if (!ctx.tasks)
        return { content: 'Background commands are not available in this session.', isError: true };
      const task = ctx.tasks.startBash(input.command, {
        cwd: where.cwd,
        description: input.description ?? input.command,
      });
      return moved({
        content: `${where.note}Started in the background as task ${task.id}. Read its output with BashOutput (bash_id "${task.id}"); stop it with KillShell (shell_id "${task.id}").`,
        display: { kind: 'bash', exitCode: null, timedOut: false, category: 'process', readOnly: false },
      });
    }
    const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
    const run = ctx.shell.run(input.command, { cwd: where.cwd, timeoutMs, signal: ctx.abortSignal });
    let result;
    for (;;) {
      const step = await run.next();
      if (step.done) {
        result = step.value;
        break;
      }
      yield { text: step.value };
    }
    const guarded = result.notes?.length ? `\n${result.notes.join('\n')}` : '';
    const output = where.note + result.output.replace(/\n+$/, '') + guarded;
    const shown = { ...shownKind(input.command), sandboxed: result.sandboxed };
    if (result.aborted)
      return moved({
        content: `${output}\n[Command interrupted]`.trim(),
        isError: true,
        display: { kind: 'bash', exitCode: result.exitCode, timedOut: false, ...shown },
      });
    const trailer = result.timedOut
      ? `\n[Command timed out after ${timeoutMs} ms; the process tree was killed]`
      : result.exitCode !== 0
        ? `\n[Exit code ${String(result.exitCode)}]`
        : '';
    const body = output.length === 0 && trailer === '' ? '(no output)' : output + trailer;
    const out: ToolOutput = {
      content: body,
      isError: result.timedOut || result.exitCode !== 0,
      display: { kind: 'bash', exitCode: result.exitCode, timedOut: result.timedOut, ...shown },
    };
    const cwd = result.cwd;
    if (cwd !== null && cwd !== ctx.cwd) out.contextModifier = (c) => ({ ...c, cwd });
    return moved(out);
  },
});
