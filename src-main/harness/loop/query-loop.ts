import { randomUUID } from 'node:crypto';
import type { ContentBlock, MessageItem, ToolResultBlock } from '@shared/domain/messages';
import type { PermissionDenial } from '@shared/domain/permissions';
import { MessageAccumulator, type AccumulatedMessage } from '../model/accumulate';
import { StreamIncompleteError, type DescribedApiError } from '../model/api-errors';
import type { ModelRouter } from '../model/model-client';
import { backoffMs, classifyError, MAX_RETRY_AFTER_MS, sleep as realSleep } from '../model/retry';
import type { PermissionGate } from '../permissions/gate';
import type { BudgetGate } from '../cost/budget/session-budget';
import { StreamingToolExecutor } from '../executor/streaming-tool-executor';
import type { AnyTool, ToolUseContext } from '../tools/tool';
import { autoCompactStep, contextTokens } from './autocompact';
import { collapseDrain } from './collapse';
import { snip } from './snip';
import { reactiveCompact } from './compact';
import { RESUME_AFTER_OUTPUT_LIMIT, stopHookNudge, tokenBudgetNudge } from './nudges';
import { buildRequest } from './request';
import type { SessionCompaction } from './session-compaction';
import type { Continue, LoopEvent, LoopState, Terminal } from './types';

export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
export const ESCALATED_MAX_OUTPUT_TOKENS = 64_000;
export const MAX_OUTPUT_TOKENS_RECOVERIES = 3;
export const DEFAULT_MAX_RETRIES = 5;
/** Overloaded answers in a row before switching to the fallback model. */
export const OVERLOADED_BEFORE_FALLBACK = 3;
/** A continuation adding fewer output tokens than this counts toward "diminishing returns". */
export const BUDGET_LOW_DELTA = 500;
export const BUDGET_LOW_STREAK = 3;
export const MAX_STOP_HOOK_CONTINUATIONS = 8;

export interface QueryParams {
  /** The context window at the start of this user turn, ending with the person's message. */
  messages: MessageItem[];
  systemPrompt: string;
  tools: readonly AnyTool[];
  toolUseContext: ToolUseContext;
  gate: PermissionGate;
  models: ModelRouter;
  model: string;
  fallbackModel?: string | undefined;
  signal: AbortSignal;
  maxTurns?: number | undefined;
  maxOutputTokens?: number | undefined;
  maxRetries?: number | undefined;
  /** An output-token budget for this user turn: continue while it is unspent (and progress is real). */
  tokenBudget?: number | undefined;
  /** Stop hooks: a non-null answer blocks the end of the turn and is fed back to the model. */
  onStop?: ((messages: readonly MessageItem[]) => Promise<string | null>) | undefined;
  /** The session's spending limits: awaited before every model request, told of every response's usage. */
  budget?: BudgetGate | undefined;
  /**
   * The session's compaction state: microcompact before every request, autocompact past the
   * threshold. Without it the loop sends the context as it is (reactive compact still applies).
   */
  compaction?: SessionCompaction | undefined;
  /** Injected for tests: waiting between retries. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
}

const now = () => new Date().toISOString();

function userItem(content: ContentBlock[], origin: MessageItem['origin']): MessageItem {
  return {
    kind: 'message',
    id: randomUUID(),
    role: 'user',
    content,
    createdAt: now(),
    status: 'complete',
    origin,
  };
}

function assistantItem(
  id: string,
  model: string,
  message: AccumulatedMessage,
  content: ContentBlock[],
  status: MessageItem['status'],
): MessageItem {
  const item: MessageItem = {
    kind: 'message',
    id,
    role: 'assistant',
    content,
    createdAt: now(),
    status,
    model: message.model ?? model,
    stopReason: message.stopReason,
    usage: message.usage,
  };
  if (message.id !== null) item.apiId = message.id;
  return item;
}

/** The final usage of one API response (billed whether its message is kept or withdrawn). */
function usageEvent(message: AccumulatedMessage, model: string, durationMs: number) {
  return {
    type: 'usage' as const,
    model: message.model ?? model,
    apiId: message.id,
    usage: message.usage,
    cacheWrite1hTokens: message.cacheWrite1hTokens,
    webSearchRequests: message.webSearchRequests,
    durationMs,
  };
}

function terminal(reason: Terminal['reason'], detail: string, error?: DescribedApiError): Terminal {
  return error ? { reason, detail, error } : { reason, detail };
}

type Attempt =
  | {
      kind: 'ok';
      itemId: string;
      message: AccumulatedMessage;
      executor: StreamingToolExecutor;
      denials: PermissionDenial[];
      durationMs: number;
    }
  | { kind: 'prompt_too_long'; error: DescribedApiError }
  | { kind: 'failed'; error: DescribedApiError }
  | { kind: 'budget'; detail: string }
  | {
      kind: 'aborted';
      partial: MessageItem | null;
      /** A stopped reply is still billed for what it used so far (at least its input). */
      used?: ReturnType<typeof usageEvent>;
    };

/**
 * One user turn: model call, tools, recovery — as a single `while (true)` over an explicit state.
 * Every continue replaces the state and names its reason (one of seven); every way out returns a
 * Terminal. Errors the loop can recover from (prompt too long, the output limit) are withheld until
 * recovery has failed. Closing the generator aborts the request and the running tools.
 */
export async function* queryLoop(params: QueryParams): AsyncGenerator<LoopEvent, Terminal> {
  const sleep = params.sleep ?? realSleep;
  const maxRetries = params.maxRetries ?? DEFAULT_MAX_RETRIES;
  const tools = params.gate.filterTools(params.tools);
  let model = params.model;
  let fellBack = false;
  let state: LoopState = {
    messages: params.messages,
    toolUseContext: params.toolUseContext,
    autoCompactTracking: undefined,
    maxOutputTokensRecoveryCount: 0,
    hasAttemptedReactiveCompact: false,
    pendingToolUseSummary: undefined,
    turnCount: 0,
    transition: undefined,
    maxOutputTokensOverride: undefined,
    budget: { outputTokens: 0, continuations: 0, lowStreak: 0 },
    stopHookContinuations: 0,
  };
  let live: StreamingToolExecutor | null = null;
  /** A summary request carries the turn's own system prompt, tools and message view. */
  const summaryPrefix = () => ({
    systemPrompt: params.systemPrompt,
    tools,
    view: params.compaction
      ? (m: readonly MessageItem[]) => params.compaction?.microcompact.view(m) ?? [...m]
      : undefined,
  });

  /** Streams one response, retrying and falling back as needed. */
  async function* attempt(): AsyncGenerator<LoopEvent, Attempt> {
    let retries = 0;
    let overloaded = 0;
    for (;;) {
      // Budgets: the session may pause here for the person's answer, or end the turn.
      if (params.budget) {
        const decision = await params.budget.beforeRequest(params.signal);
        if (params.signal.aborted) return { kind: 'aborted', partial: null };
        if (decision !== 'go') return { kind: 'budget', detail: decision.message };
      }
      const itemId = randomUUID();
      const denials: PermissionDenial[] = [];
      const executor = new StreamingToolExecutor({
        tools,
        gate: params.gate,
        context: state.toolUseContext,
        turnSignal: params.signal,
        onDenied: (d) => denials.push(d),
      });
      live = executor;
      const acc = new MessageAccumulator();
      const request = buildRequest({
        model,
        systemPrompt: params.systemPrompt,
        tools,
        // Microcompact changes only what is sent; the state (and the transcript) keep the full outputs.
        messages: params.compaction?.microcompact.forRequest(state.messages).messages ?? state.messages,
        maxTokens: state.maxOutputTokensOverride ?? params.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        keepThinking: !fellBack,
      });
      const started = performance.now();
      let shown = false;
      try {
        for await (const event of params.models.clientFor(model).stream(request, params.signal)) {
          const delta = acc.apply(event);
          if (event.type === 'message_start') {
            shown = true;
            yield { type: 'assistant_start', itemId, model: acc.message.model ?? model };
          }
          if (delta?.kind === 'text')
            yield { type: 'text_delta', itemId, index: delta.index, text: delta.text };
          else if (delta?.kind === 'tool_use') {
            yield { type: 'tool_start', itemId, block: delta.block };
            executor.addTool(delta.block, delta.inputProblem);
          }
          for (const e of executor.drainEvents()) if (e.type === 'tool_progress') yield e;
          while (denials.length > 0) yield { type: 'denied', denial: denials.shift() as PermissionDenial };
        }
        if (!acc.message.complete) throw new StreamIncompleteError();
        return {
          kind: 'ok',
          itemId,
          message: acc.message,
          executor,
          denials,
          durationMs: performance.now() - started,
        };
      } catch (error) {
        if (params.signal.aborted) {
          executor.discard();
          const content = acc.finishedContent;
          return {
            kind: 'aborted',
            partial: shown ? assistantItem(itemId, model, acc.message, content, 'interrupted') : null,
            ...(shown ? { used: usageEvent(acc.message, model, performance.now() - started) } : {}),
          };
        }
        executor.discard();
        // What was shown of a failed attempt is withdrawn: a retry streams it afresh.
        if (shown) yield { type: 'tombstone', itemId };
        const c = classifyError(error);
        if (c.kind === 'aborted') return { kind: 'aborted', partial: null };
        if (c.kind === 'prompt_too_long') return { kind: 'prompt_too_long', error: c.described };
        if (c.kind === 'fatal') return { kind: 'failed', error: c.described };
        if (c.kind === 'overloaded') overloaded++;
        else overloaded = 0;
        if (
          c.kind === 'overloaded' &&
          overloaded >= OVERLOADED_BEFORE_FALLBACK &&
          params.fallbackModel &&
          !fellBack &&
          params.fallbackModel !== model
        ) {
          yield { type: 'fallback', from: model, to: params.fallbackModel };
          model = params.fallbackModel;
          fellBack = true;
          retries = 0;
          overloaded = 0;
          continue;
        }
        if (retries >= maxRetries) return { kind: 'failed', error: c.described };
        const delayMs = Math.min(c.retryAfterMs ?? backoffMs(retries), MAX_RETRY_AFTER_MS);
        retries++;
        yield { type: 'retry', attempt: retries, maxRetries, delayMs, error: c.described };
        try {
          await sleep(delayMs, params.signal);
        } catch {
          return { kind: 'aborted', partial: null };
        }
      }
    }
  }

  try {
    while (true) {
      // Snip first (local, free), then a summary if still past the line. Right after a snip the last
      // response's usage still counts the dropped messages: the next response's will tell.
      const snipped = params.compaction ? snip(state.messages, params.compaction.snip) : null;
      if (snipped) {
        const tokensBefore = contextTokens(state.messages);
        yield {
          type: 'context_replaced',
          messages: snipped.messages,
          how: 'compact',
          keepFromId: snipped.keepFromId,
          summary: snipped.head,
          affected: snipped.dropped,
        };
        yield {
          type: 'compaction',
          trigger: 'snip',
          ok: true,
          summary: snipped.head,
          breakerOpen: false,
          tokensBefore,
          detail: `Long history: ${snipped.dropped} messages snipped from the middle.`,
        };
        state = { ...state, messages: snipped.messages };
      } else if (params.compaction) {
        const compacted = yield* autoCompactStep({
          auto: params.compaction.auto,
          client: params.models.clientFor(model),
          model,
          messages: state.messages,
          signal: params.signal,
          budget: params.budget,
          prefix: summaryPrefix(),
          usageOf: (message, durationMs) => usageEvent(message, model, durationMs),
        });
        if (params.signal.aborted) return terminal('aborted', 'Stopped by the user.');
        state = {
          ...state,
          messages: compacted ?? state.messages,
          autoCompactTracking: { consecutiveFailures: params.compaction.auto.consecutiveFailures },
        };
      }
      const result = yield* attempt();

      if (result.kind === 'aborted') {
        if (result.used) {
          params.budget?.recordUsage(result.used);
          yield result.used;
        }
        if (result.partial) yield { type: 'assistant', item: result.partial };
        return terminal('aborted', 'Stopped by the user.');
      }
      if (result.kind === 'budget') return terminal('budget', result.detail);
      if (result.kind === 'failed') {
        yield { type: 'error', error: result.error };
        return terminal('error', result.error.message, result.error);
      }
      if (result.kind === 'prompt_too_long') {
        // Withheld: first fold old tool output, then summarize once; only then is the error released.
        if (state.transition?.reason !== 'collapse_drain_retry' && !state.hasAttemptedReactiveCompact) {
          const drained = collapseDrain(state.messages);
          if (drained.folded > 0) {
            yield {
              type: 'context_replaced',
              messages: drained.messages,
              how: 'collapse',
              keepFromId: drained.keepFromId,
              summary: null,
              affected: drained.folded,
            };
            const transition: Continue = {
              reason: 'collapse_drain_retry',
              detail: `Prompt too long: folded ${drained.folded} old tool result(s)`,
            };
            state = { ...state, messages: drained.messages, transition };
            yield { type: 'transition', transition };
            continue;
          }
        }
        if (!state.hasAttemptedReactiveCompact) {
          // The summary is a model request too: it waits at the budget like the others.
          if (params.budget) {
            const decision = await params.budget.beforeRequest(params.signal);
            if (params.signal.aborted) return terminal('aborted', 'Stopped by the user.');
            if (decision !== 'go') return terminal('budget', decision.message);
          }
          const compacted = await reactiveCompact(
            params.models.clientFor(model),
            model,
            state.messages,
            params.signal,
            summaryPrefix(),
            params.compaction?.auto.hooks,
          );
          if (!compacted.ok && compacted.blocked !== undefined)
            yield {
              type: 'compaction',
              trigger: 'auto',
              ok: false,
              summary: null,
              breakerOpen: false,
              tokensBefore: contextTokens(state.messages),
              detail: `The prompt is too long and a PreCompact hook blocked the compaction that would have shortened it: ${compacted.blocked}`,
            };
          if (compacted.response?.complete) {
            const used = {
              ...usageEvent(compacted.response, model, compacted.ok ? compacted.durationMs : 0),
              purpose: 'compact' as const,
            };
            params.budget?.recordUsage(used);
            yield used;
          }
          if (compacted.ok) {
            yield {
              type: 'context_replaced',
              messages: compacted.messages,
              how: 'compact',
              keepFromId: compacted.keepFromId,
              summary: compacted.summary,
              affected: compacted.summarized,
            };
            const transition: Continue = {
              reason: 'reactive_compact_retry',
              detail: `Prompt too long: summarized ${compacted.summarized} earlier message(s)`,
            };
            state = { ...state, messages: compacted.messages, hasAttemptedReactiveCompact: true, transition };
            yield { type: 'transition', transition };
            continue;
          }
          state = { ...state, hasAttemptedReactiveCompact: true };
        }
        yield { type: 'error', error: result.error };
        return terminal('prompt_too_long', result.error.message, result.error);
      }

      const { itemId, message, executor, denials } = result;
      const used = usageEvent(message, model, result.durationMs);
      params.budget?.recordUsage(used);
      yield used;
      state.budget = {
        ...state.budget,
        outputTokens: state.budget.outputTokens + message.usage.outputTokens,
      };

      if (message.stopReason === 'max_tokens') {
        if (
          state.maxOutputTokensOverride === undefined &&
          (params.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS) < ESCALATED_MAX_OUTPUT_TOKENS
        ) {
          // Withheld: ask again with a higher limit; the cut-off reply is withdrawn.
          executor.discard();
          yield { type: 'tombstone', itemId };
          const transition: Continue = {
            reason: 'max_output_tokens_escalate',
            detail: `Output limit hit; retrying with ${ESCALATED_MAX_OUTPUT_TOKENS} tokens`,
          };
          state = { ...state, maxOutputTokensOverride: ESCALATED_MAX_OUTPUT_TOKENS, transition };
          yield { type: 'transition', transition };
          continue;
        }
        // Keep what was written (only finished tool calls), and ask the model to carry on.
        executor.discard();
        const kept = assistantItem(
          itemId,
          model,
          message,
          message.content.filter((b) => b.type !== 'tool_use'),
          'complete',
        );
        yield { type: 'assistant', item: kept };
        if (state.maxOutputTokensRecoveryCount >= MAX_OUTPUT_TOKENS_RECOVERIES) {
          const error: DescribedApiError = {
            code: 'max_output_tokens',
            status: null,
            message: `The reply hit the output token limit ${MAX_OUTPUT_TOKENS_RECOVERIES + 1} times in a row; stopping.`,
          };
          yield { type: 'error', error };
          return terminal('error', error.message, error);
        }
        const nudge = userItem([{ type: 'text', text: RESUME_AFTER_OUTPUT_LIMIT }], 'nudge');
        yield { type: 'user', item: nudge };
        const transition: Continue = {
          reason: 'max_output_tokens_recovery',
          detail: `Output limit hit; asked to resume (${state.maxOutputTokensRecoveryCount + 1} of ${MAX_OUTPUT_TOKENS_RECOVERIES})`,
        };
        state = {
          ...state,
          messages: [...state.messages, kept, nudge],
          maxOutputTokensRecoveryCount: state.maxOutputTokensRecoveryCount + 1,
          transition,
        };
        yield { type: 'transition', transition };
        continue;
      }

      const assistant = assistantItem(itemId, model, message, message.content, 'complete');
      yield { type: 'assistant', item: assistant };
      const messages = [...state.messages, assistant];

      if (executor.hasTools) {
        const results: ToolResultBlock[] = [];
        for await (const e of executor.results()) {
          while (denials.length > 0) yield { type: 'denied', denial: denials.shift() as PermissionDenial };
          if (e.type === 'tool_progress') yield e;
          else if (e.type === 'tool_result') {
            results.push(e.block);
            yield { type: 'tool_result', block: e.block };
          }
        }
        while (denials.length > 0) yield { type: 'denied', denial: denials.shift() as PermissionDenial };
        const toolResults = userItem(results, 'tool_results');
        yield { type: 'user', item: toolResults };
        if (executor.finalContext.cwd !== state.toolUseContext.cwd)
          yield { type: 'cwd', cwd: executor.finalContext.cwd };
        if (params.signal.aborted) return terminal('aborted', 'Stopped by the user.');
        const turnCount = state.turnCount + 1;
        if (params.maxTurns !== undefined && turnCount >= params.maxTurns) {
          return terminal('max_turns', `Reached the maximum of ${params.maxTurns} turns.`);
        }
        const transition: Continue = { reason: 'next_turn', detail: `Ran ${results.length} tool call(s)` };
        state = {
          ...state,
          messages: [...messages, toolResults],
          toolUseContext: executor.finalContext,
          turnCount,
          transition,
          maxOutputTokensOverride: undefined,
        };
        yield { type: 'transition', transition };
        continue;
      }

      if (params.onStop && state.stopHookContinuations < MAX_STOP_HOOK_CONTINUATIONS) {
        const blocked = await params.onStop(messages);
        if (blocked !== null) {
          const nudge = userItem([{ type: 'text', text: stopHookNudge(blocked) }], 'nudge');
          yield { type: 'user', item: nudge };
          const transition: Continue = {
            reason: 'stop_hook_blocking',
            detail: `A Stop hook blocked the stop: ${blocked}`,
          };
          state = {
            ...state,
            messages: [...messages, nudge],
            stopHookContinuations: state.stopHookContinuations + 1,
            transition,
          };
          yield { type: 'transition', transition };
          continue;
        }
      }

      if (params.tokenBudget !== undefined && state.budget.outputTokens < params.tokenBudget) {
        const afterContinuation = state.transition?.reason === 'token_budget_continuation';
        const lowStreak =
          afterContinuation && message.usage.outputTokens < BUDGET_LOW_DELTA ? state.budget.lowStreak + 1 : 0;
        if (lowStreak < BUDGET_LOW_STREAK) {
          const nudge = userItem(
            [{ type: 'text', text: tokenBudgetNudge(state.budget.outputTokens, params.tokenBudget) }],
            'nudge',
          );
          yield { type: 'user', item: nudge };
          const transition: Continue = {
            reason: 'token_budget_continuation',
            detail: `Budget ${state.budget.outputTokens}/${params.tokenBudget} output tokens; continuing`,
          };
          state = {
            ...state,
            messages: [...messages, nudge],
            budget: { ...state.budget, continuations: state.budget.continuations + 1, lowStreak },
            transition,
          };
          yield { type: 'transition', transition };
          continue;
        }
        return terminal(
          'completed',
          `Stopped continuing: ${BUDGET_LOW_STREAK} continuations in a row added under ${BUDGET_LOW_DELTA} tokens each.`,
        );
      }
      return terminal('completed', 'The model finished.');
    }
  } finally {
    // Closing the generator (Stop, Esc, Ctrl+C) must not leave tools running.
    (live as StreamingToolExecutor | null)?.discard();
  }
}
