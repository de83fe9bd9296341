import type { MessageItem } from '@shared/domain/messages';
import { totalTokens } from '@shared/domain/usage';
import { contextWindowFor } from '../context/context-window';
import type { LoopEvent } from '../events/agent-event';
import type { AccumulatedMessage } from '../model/accumulate';
import type { ModelClient } from '../model/model-client';
import type { BudgetGate } from '../cost/budget/session-budget';
import { compactCut, summarizeBefore, type CompactHooks, type SummaryPrefix } from './compact';

export type { CompactHooks };

/** Room kept free for the summary's own output (Claude Code keeps the same). */
export const SUMMARY_OUTPUT_RESERVE = 20_000;
/** And a margin below that, so the request that crosses the line still fits. */
export const AUTOCOMPACT_BUFFER = 13_000;
/** Summary failures in a row after which autocompact stops trying for the session. */
export const MAX_CONSECUTIVE_FAILURES = 3;

export interface AutoCompactOptions {
  /** Off: the session never compacts on its own (reactive compact still does on prompt-too-long). */
  enabled?: boolean | undefined;
  /**
   * Compact at this percentage of the context window instead of the default line
   * (window − summary reserve − buffer: 167,000 of 200,000 tokens, 83.5 %).
   */
  thresholdPct?: number | undefined;
  contextWindow?: ((model: string) => number) | undefined;
  /** PreCompact and PostCompact hooks, around automatic and manual compaction. */
  hooks?: CompactHooks | undefined;
}

/**
 * Tokens the next request will hold: the last response's whole usage (its input — fresh, cache read
 * and cache write — and its output, which the next request carries back), plus an estimate (four
 * characters a token) for the messages added after it, such as tool results. Without a response since
 * the last compaction, the estimate covers every message.
 */
export function contextTokens(messages: readonly MessageItem[]): number {
  let at = messages.findLastIndex((m) => m.role === 'assistant' && m.usage !== undefined);
  if (at < messages.findLastIndex((m) => m.origin === 'summary')) at = -1;
  const usage = at >= 0 ? messages[at]?.usage : undefined;
  const base = usage ? totalTokens(usage) : 0;
  const chars = messages.slice(at + 1).reduce((n, m) => n + JSON.stringify(m.content).length, 0);
  return base + Math.ceil(chars / 4);
}

export interface ContextMeter {
  tokens: number;
  window: number;
  autocompactAt: number | null;
}

/**
 * Autocompact's session state: the threshold, and the circuit breaker. A summary call that fails
 * (an error, an empty summary) counts; a success resets the count; after three failures in a row
 * autocompact is off for the rest of the session, so a session whose summaries keep failing does not
 * pay for a doomed summary before every request. The turn goes on uncompacted either way (and a
 * prompt-too-long still gets reactive compact).
 */
export class AutoCompact {
  private failures = 0;
  private readonly enabled: boolean;
  private readonly thresholdPct: number | undefined;
  private readonly windowOf: (model: string) => number;
  readonly hooks: CompactHooks | undefined;

  constructor(options: AutoCompactOptions = {}) {
    this.hooks = options.hooks;
    this.enabled = options.enabled ?? true;
    this.thresholdPct = options.thresholdPct;
    this.windowOf = options.contextWindow ?? contextWindowFor;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** The circuit breaker is open: no more attempts this session. */
  get gaveUp(): boolean {
    return this.failures >= MAX_CONSECUTIVE_FAILURES;
  }

  threshold(model: string): number {
    const window = this.windowOf(model);
    if (this.thresholdPct !== undefined) return Math.floor((window * this.thresholdPct) / 100);
    return window - SUMMARY_OUTPUT_RESERVE - AUTOCOMPACT_BUFFER;
  }

  /**
   * The status bar's context meter: tokens the next request will hold, of the model's window, and
   * where autocompact starts (null when it will not: switched off, or given up for the session).
   */
  meter(messages: readonly MessageItem[], model: string): ContextMeter {
    return {
      tokens: contextTokens(messages),
      window: this.windowOf(model),
      autocompactAt: this.enabled && !this.gaveUp ? this.threshold(model) : null,
    };
  }

  /** The tokens and the line when the messages are past it and an attempt is due; null otherwise. */
  due(messages: readonly MessageItem[], model: string): { tokens: number; threshold: number } | null {
    if (!this.enabled || this.gaveUp) return null;
    const tokens = contextTokens(messages);
    const threshold = this.threshold(model);
    return tokens >= threshold ? { tokens, threshold } : null;
  }

  succeeded(): void {
    this.failures = 0;
  }

  /** Counts a failure; true when it opened the breaker. */
  failed(): boolean {
    this.failures++;
    return this.failures === MAX_CONSECUTIVE_FAILURES;
  }
}

export interface AutoCompactStep {
  auto: AutoCompact;
  client: ModelClient;
  model: string;
  messages: readonly MessageItem[];
  signal: AbortSignal;
  budget?: BudgetGate | undefined;
  /** The system prompt, tools and message view the turn's requests send (the summary shares them). */
  prefix?: SummaryPrefix | undefined;
  /** The usage event of the summary call, as the loop reports every response. */
  usageOf: (message: AccumulatedMessage, durationMs: number) => Extract<LoopEvent, { type: 'usage' }>;
}

/**
 * Runs before a request: when the context is past the threshold, summarizes the older messages and
 * returns the compacted ones (the caller continues with them); null when it did not compact. Reports
 * the summary call's usage, the replaced context (so the engine records it for resume) and a
 * `compaction` event with the summary or the failure.
 */
export async function* autoCompactStep(s: AutoCompactStep): AsyncGenerator<LoopEvent, MessageItem[] | null> {
  const due = s.auto.due(s.messages, s.model);
  if (!due) return null;
  // An optional request: not while the session is paused or stopped at a spending limit (the turn's
  // own request waits there for the person).
  if (s.budget?.sideRequestsAllowed && !(await s.budget.sideRequestsAllowed().catch(() => true))) return null;
  const cut = compactCut(s.messages);
  // Nothing older than the current request (one huge prompt): no summary can help; reactive compact
  // answers if the request is refused. Not a failure, and nothing to report before every request.
  if (cut <= 0) return null;
  // PreCompact hooks may block this compaction (the turn goes on uncompacted) or add instructions.
  const pre = s.auto.hooks
    ? await s.auto.hooks.before('auto', undefined, s.signal)
    : { instructions: undefined };
  if ('blocked' in pre) return null;
  const started = performance.now();
  const result = await summarizeBefore(
    s.client,
    s.model,
    s.messages,
    cut,
    s.signal,
    pre.instructions,
    s.prefix,
  );
  if (s.signal.aborted) return null;
  if (result.response?.complete) {
    const used = { ...s.usageOf(result.response, performance.now() - started), purpose: 'compact' as const };
    s.budget?.recordUsage(used);
    yield used;
  }
  const figures = `${due.tokens.toLocaleString('en-US')} of ${due.threshold.toLocaleString('en-US')} tokens`;
  if (!result.ok) {
    const opened = s.auto.failed();
    yield {
      type: 'compaction',
      trigger: 'auto',
      ok: false,
      summary: null,
      breakerOpen: s.auto.gaveUp,
      tokensBefore: due.tokens,
      detail: opened
        ? `Automatic compaction failed ${s.auto.consecutiveFailures} times in a row (${result.reason}); it is off for the rest of this session.`
        : `Automatic compaction failed (${result.reason}); the conversation goes on uncompacted.`,
    };
    return null;
  }
  s.auto.succeeded();
  await s.auto.hooks?.after('auto', result.summary);
  yield {
    type: 'context_replaced',
    messages: result.messages,
    how: 'compact',
    keepFromId: result.keepFromId,
    summary: result.summary,
    affected: result.summarized,
  };
  yield {
    type: 'compaction',
    trigger: 'auto',
    ok: true,
    summary: result.summary,
    breakerOpen: false,
    tokensBefore: due.tokens,
    summarized: result.summarized,
    detail: `Context compacted automatically at ${figures}: ${result.summarized} earlier message(s) summarized.`,
  };
  return result.messages;
}
