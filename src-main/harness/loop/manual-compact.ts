import type { MessageItem } from '@shared/domain/messages';
import type { BudgetGate } from '../cost/budget/session-budget';
import type { LoopEvent } from '../events/agent-event';
import type { AccumulatedMessage } from '../model/accumulate';
import type { ModelClient } from '../model/model-client';
import { contextTokens, type CompactHooks } from './autocompact';
import { summarizeBefore, type SummaryPrefix } from './compact';

/** `/compact` or `/compact <instructions>`: the instructions (undefined when none); null for any other prompt. */
export function parseCompactCommand(prompt: string): { instructions: string | undefined } | null {
  const m = /^\/compact(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!m) return null;
  const instructions = m[1]?.trim();
  return { instructions: instructions ? instructions : undefined };
}

export interface ManualCompact {
  client: ModelClient;
  model: string;
  messages: readonly MessageItem[];
  signal: AbortSignal;
  instructions?: string | undefined;
  budget?: BudgetGate | undefined;
  /** The session's system prompt and tools (the API refuses tool blocks in a request without tools). */
  prefix?: SummaryPrefix | undefined;
  usageOf: (message: AccumulatedMessage, durationMs: number) => Extract<LoopEvent, { type: 'usage' }>;
  /** PreCompact (may block, or add instructions) and PostCompact hooks. */
  hooks?: CompactHooks | undefined;
}

/**
 * `/compact [instructions]`: the whole conversation is summarized (the person's instructions say what
 * to keep) and the context becomes the summary alone; the next prompt follows it. Reports the summary
 * call's usage, the replaced context and a `compaction` event; returns whether it worked and why not.
 */
export async function* manualCompact(
  s: ManualCompact,
): AsyncGenerator<LoopEvent, { ok: boolean; detail: string }> {
  if (s.messages.length === 0) return { ok: false, detail: 'There is no conversation to compact yet.' };
  if (s.budget) {
    const decision = await s.budget.beforeRequest(s.signal);
    if (s.signal.aborted) return { ok: false, detail: 'Stopped by the user.' };
    if (decision !== 'go') return { ok: false, detail: decision.message };
  }
  const tokensBefore = contextTokens(s.messages);
  const pre = s.hooks
    ? await s.hooks.before('manual', s.instructions, s.signal)
    : { instructions: s.instructions };
  if ('blocked' in pre) {
    const detail = `A PreCompact hook blocked the compaction: ${pre.blocked}. The conversation is unchanged.`;
    yield {
      type: 'compaction',
      trigger: 'manual',
      ok: false,
      summary: null,
      breakerOpen: false,
      tokensBefore,
      detail,
    };
    return { ok: false, detail };
  }
  const started = performance.now();
  const result = await summarizeBefore(
    s.client,
    s.model,
    s.messages,
    s.messages.length,
    s.signal,
    pre.instructions,
    s.prefix,
  );
  if (result.response?.complete) {
    const used = { ...s.usageOf(result.response, performance.now() - started), purpose: 'compact' as const };
    s.budget?.recordUsage(used);
    yield used;
  }
  if (s.signal.aborted) return { ok: false, detail: 'Stopped by the user.' };
  if (!result.ok) {
    const detail = `Compaction failed: ${result.reason}. The conversation is unchanged.`;
    yield {
      type: 'compaction',
      trigger: 'manual',
      ok: false,
      summary: null,
      breakerOpen: false,
      tokensBefore,
      detail,
    };
    return { ok: false, detail };
  }
  yield {
    type: 'context_replaced',
    messages: result.messages,
    how: 'compact',
    keepFromId: result.keepFromId,
    summary: result.summary,
    affected: result.summarized,
  };
  await s.hooks?.after('manual', result.summary);
  const detail = `Conversation compacted: ${result.summarized} message(s) summarized.`;
  yield {
    type: 'compaction',
    trigger: 'manual',
    ok: true,
    summary: result.summary,
    breakerOpen: false,
    tokensBefore,
    summarized: result.summarized,
    detail,
  };
  return { ok: true, detail };
}
