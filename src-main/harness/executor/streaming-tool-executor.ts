import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { ImageBlock, TextBlock, ToolResultBlock, ToolUseBlock } from '@shared/domain/messages';
import type { PermissionDenial } from '@shared/domain/permissions';
import type { PermissionGate } from '../permissions/gate';
import type { AnyTool, ToolOutput, ToolProgress, ToolUseContext } from '../tools/tool';

export type ExecutorEvent =
  | { type: 'tool_start'; toolUseId: string }
  | ({ type: 'tool_progress'; toolUseId: string } & ToolProgress)
  | { type: 'tool_result'; toolUseId: string; block: ToolResultBlock };

export interface ExecutorOptions {
  tools: readonly AnyTool[];
  gate: PermissionGate;
  /** The context tools run with; non-concurrency-safe tools may replace it through contextModifier. */
  context: ToolUseContext;
  /** Aborting the turn aborts every tool. */
  turnSignal: AbortSignal;
  maxConcurrency?: number;
  onDenied?: (denial: PermissionDenial) => void;
  /** The tool whose failure cancels its running siblings (Claude Code: Bash). */
  siblingAbortingTool?: string;
}

interface Tracked {
  block: ToolUseBlock;
  tool: AnyTool | undefined;
  input: unknown;
  /** Why the call cannot run at all (unknown tool, bad input); it completes at once with this error. */
  invalid: string | null;
  safe: boolean;
  status: 'queued' | 'running' | 'done';
  result: ToolResultBlock | null;
}

const MAX_CONCURRENCY = 10;

function contentLength(content: ToolOutput['content']): number {
  return typeof content === 'string'
    ? content.length
    : content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0);
}

function describeIssues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(input)'}: ${i.message}`)
    .join('; ');
}

/**
 * Runs tool calls while the model is still streaming. Each `tool_use` block starts as soon as it is
 * complete; consecutive concurrency-safe calls form a partition that runs in parallel (at most 10 at
 * once); a call that is not concurrency-safe waits for everything before it and runs alone. Results
 * come out in the order the model asked for them, whatever order they finish in. When a Bash call
 * fails, its running siblings are aborted (a sibling AbortController), not the turn.
 */
export class StreamingToolExecutor {
  private readonly tracked: Tracked[] = [];
  private readonly pending: ExecutorEvent[] = [];
  private readonly sibling = new AbortController();
  private siblingFailure: string | null = null;
  private discarded = false;
  private context: ToolUseContext;
  private notify: (() => void) | null = null;
  private readonly maxConcurrency: number;
  private readonly onTurnAbort = () => this.sibling.abort();

  constructor(private readonly options: ExecutorOptions) {
    this.context = options.context;
    this.maxConcurrency = options.maxConcurrency ?? MAX_CONCURRENCY;
    if (options.turnSignal.aborted) this.sibling.abort();
    else options.turnSignal.addEventListener('abort', this.onTurnAbort, { once: true });
  }

  /** Queues a completed tool_use block and starts it if the partition rules allow. */
  addTool(block: ToolUseBlock, inputProblem?: string): void {
    const tool = this.options.tools.find((t) => t.name === block.name);
    let invalid: string | null = null;
    let input: unknown = block.input;
    if (!tool) invalid = `No such tool available: ${block.name}`;
    else if (inputProblem !== undefined) invalid = `InputValidationError: ${block.name}: ${inputProblem}`;
    else {
      const parsed = (tool.inputSchema as z.ZodType).safeParse(block.input);
      if (parsed.success) input = parsed.data;
      else
        invalid = `InputValidationError: ${block.name} was called with invalid input: ${describeIssues(parsed.error)}`;
    }
    const safe = invalid === null && tool !== undefined && safeCall(() => tool.isConcurrencySafe(input));
    this.tracked.push({
      block,
      tool,
      input,
      invalid,
      safe: invalid !== null || safe,
      status: 'queued',
      result: null,
    });
    this.schedule();
  }

  /** Progress and start events since the last call, for showing live while the model still streams. */
  drainEvents(): ExecutorEvent[] {
    return this.pending.splice(0);
  }

  get hasTools(): boolean {
    return this.tracked.length > 0;
  }

  /** Every event until all queued tools are done: live progress, and results in request order. */
  async *results(): AsyncGenerator<ExecutorEvent> {
    let next = 0;
    while (next < this.tracked.length) {
      yield* this.pending.splice(0);
      const t = this.tracked[next];
      if (t?.status === 'done' && t.result) {
        yield { type: 'tool_result', toolUseId: t.block.id, block: t.result };
        next++;
        continue;
      }
      await new Promise<void>((resolve) => (this.notify = resolve));
    }
    yield* this.pending.splice(0);
  }

  /** Abandons every call (model fallback): running tools are aborted and no result is reported. */
  discard(): void {
    this.discarded = true;
    this.sibling.abort();
    this.options.turnSignal.removeEventListener('abort', this.onTurnAbort);
  }

  /** The context after the tools that ran (a cwd change, say). */
  get finalContext(): ToolUseContext {
    return this.context;
  }

  private wake(): void {
    const n = this.notify;
    this.notify = null;
    n?.();
  }

  private schedule(): void {
    if (this.discarded) return;
    let running = this.tracked.filter((t) => t.status === 'running').length;
    let unsafeBefore = false;
    let anyBefore = false;
    for (const t of this.tracked) {
      if (t.status === 'queued') {
        if (t.safe) {
          if (unsafeBefore || running >= this.maxConcurrency) return;
          this.start(t);
          running++;
        } else {
          if (anyBefore) return;
          this.start(t);
          return;
        }
      }
      if (t.status !== 'done') {
        anyBefore = true;
        if (!t.safe) unsafeBefore = true;
      }
    }
  }

  private start(t: Tracked): void {
    t.status = 'running';
    this.pending.push({ type: 'tool_start', toolUseId: t.block.id });
    void this.run(t).then((result) => {
      t.result = result;
      t.status = 'done';
      this.schedule();
      this.wake();
    });
  }

  private async run(t: Tracked): Promise<ToolResultBlock> {
    // Restarted once the gate has decided: time spent waiting for a person's approval is theirs,
    // not the tool's, and a card saying a `true` took 40 s would be wrong.
    let started = performance.now();
    const finish = (output: ToolOutput): ToolResultBlock =>
      this.toBlock(t, output, performance.now() - started);
    if (t.invalid !== null || !t.tool) return finish({ content: t.invalid ?? 'Unknown tool', isError: true });
    if (this.sibling.signal.aborted) return finish({ content: this.cancelledMessage(), isError: true });
    const tool = t.tool;
    const ctx: ToolUseContext = { ...this.context, toolUseId: t.block.id, abortSignal: this.sibling.signal };
    const decision = await this.options.gate.check(tool, t.input, ctx);
    started = performance.now();
    if (decision.behavior === 'deny') {
      this.options.onDenied?.({ tool_name: tool.name, tool_use_id: t.block.id, tool_input: t.block.input });
      return finish({ content: decision.message, isError: true });
    }
    let input = t.input;
    if (decision.updatedInput !== undefined) {
      // A hook's replacement input is checked like the model's: it must fit the tool's schema.
      const parsed = (tool.inputSchema as z.ZodType).safeParse(decision.updatedInput);
      if (!parsed.success)
        return finish({
          content: `InputValidationError: ${tool.name}: the input a PreToolUse hook gave is not valid: ${describeIssues(parsed.error)}`,
          isError: true,
        });
      input = parsed.data;
    }
    let output: ToolOutput;
    try {
      const callCtx = decision.checkedPaths ? { ...ctx, checkedPaths: decision.checkedPaths } : ctx;
      const gen = tool.call(input, callCtx);
      for (;;) {
        const step = await gen.next();
        if (step.done) {
          output = step.value;
          break;
        }
        this.pending.push({ type: 'tool_progress', toolUseId: t.block.id, ...step.value });
        this.wake();
      }
    } catch (error) {
      output = this.stopped()
        ? { content: this.cancelledMessage(), isError: true }
        : { content: `${tool.name} failed: ${(error as Error).message}`, isError: true };
    }
    if (this.stopped() && !this.discarded && typeof output.content === 'string') {
      // Stopped from outside (the user, or a failing sibling): say why, keep what it had printed.
      const partial = output.content.trim();
      output = {
        ...output,
        isError: true,
        content: partial === '' ? this.cancelledMessage() : `${this.cancelledMessage()}\n${partial}`,
      };
    } else if (output.isError && tool.name === (this.options.siblingAbortingTool ?? 'Bash')) {
      this.siblingFailure = tool.name;
      this.sibling.abort();
    }
    if (!t.safe && output.contextModifier) this.context = output.contextModifier(this.context);
    return finish(output);
  }

  /** Read through a method: the flag changes during awaits, which the compiler's narrowing cannot see. */
  private stopped(): boolean {
    return this.sibling.signal.aborted;
  }

  private cancelledMessage(): string {
    if (this.options.turnSignal.aborted)
      return 'Interrupted by user: the tool call was stopped before it finished.';
    if (this.siblingFailure)
      return `Cancelled: a parallel ${this.siblingFailure} call failed, so this call was stopped.`;
    return 'Cancelled.';
  }

  private toBlock(t: Tracked, output: ToolOutput, durationMs: number): ToolResultBlock {
    let content: string | (TextBlock | ImageBlock)[] = output.content;
    let savedTo: string | undefined;
    const limit = t.tool?.maxResultChars ?? Infinity;
    if (contentLength(content) > limit) {
      const text =
        typeof content === 'string'
          ? content
          : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      savedTo = this.saveLargeOutput(t.block.id, text);
      const keep = Math.floor(limit * 0.4);
      content = `${text.slice(0, keep)}\n\n… [${text.length - 2 * keep} characters omitted. The full output (${text.length} characters) is saved at ${savedTo}; use Read with offset/limit or Grep on it.] …\n\n${text.slice(-keep)}`;
    }
    const block: ToolResultBlock = {
      type: 'tool_result',
      tool_use_id: t.block.id,
      content,
      meta: { durationMs: Math.round(durationMs) },
    };
    if (output.isError) block.is_error = true;
    if (output.display && block.meta) block.meta.display = output.display;
    if (savedTo && block.meta) block.meta.savedTo = savedTo;
    return block;
  }

  private saveLargeOutput(toolUseId: string, text: string): string {
    const dir = path.join(this.context.sessionDir, 'tool-results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${toolUseId.replace(/[^\w-]/g, '_')}.txt`);
    writeFileSync(file, text);
    return file;
  }
}

function safeCall(fn: () => boolean): boolean {
  try {
    return fn();
  } catch {
    return false;
  }
}
