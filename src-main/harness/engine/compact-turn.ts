import type { TranscriptItem } from '@shared/domain/messages';
import type { BudgetGate } from '../cost/budget/session-budget';
import type { EngineEvent } from '../events/agent-event';
import { manualCompact } from '../loop/manual-compact';
import type { SessionCompaction } from '../loop/session-compaction';
import type { ModelRouter } from '../model/model-client';
import type { AnyTool } from '../tools/tool';
import type { Conversation } from './conversation';
import type { TurnResult } from './engine-options';
import { noteFor } from './engine-notes';
import type { RunningTurn } from './running-turn';

export interface CompactTurn {
  conversation: Conversation;
  model: string;
  models: ModelRouter;
  budget: BudgetGate | undefined;
  compaction: SessionCompaction;
  /** The last turn's system prompt and the tools it could use: the summary reads from the cache. */
  systemPrompt: string;
  tools: readonly AnyTool[];
  /** The person's instructions for the summary, if any. */
  instructions: string | undefined;
  /** Records a note in the transcript. */
  record: (item: TranscriptItem) => void;
}

export type CompactOutcome = { ok: boolean; detail: string };

/**
 * `/compact [instructions]`'s steps within its running turn: the summary request's events, each
 * folded, yielded and followed by its note; returns whether it compacted.
 */
export async function* compactSteps(
  c: CompactTurn,
  turn: RunningTurn,
): AsyncGenerator<EngineEvent, CompactOutcome> {
  const steps = manualCompact({
    client: c.models.clientFor(c.model),
    model: c.model,
    messages: c.conversation.context,
    signal: turn.abort.signal,
    instructions: c.instructions,
    budget: c.budget,
    hooks: c.compaction.auto.hooks,
    prefix: {
      systemPrompt: c.systemPrompt,
      tools: c.tools,
      view: (m) => c.compaction.microcompact.view(m),
    },
    usageOf: (message, durationMs) => ({
      type: 'usage',
      model: message.model ?? c.model,
      apiId: message.id,
      usage: message.usage,
      cacheWrite1hTokens: message.cacheWrite1hTokens,
      webSearchRequests: message.webSearchRequests,
      durationMs,
    }),
  });
  for (;;) {
    const next = await steps.next();
    if (next.done) return next.value;
    turn.fold.apply(next.value);
    yield next.value;
    const note = noteFor(next.value);
    if (note) {
      c.record(note);
      yield { type: 'item', item: note };
    }
  }
}

/** A /compact's turn result: its detail as the text, an error when it did not compact. */
export function compactResult(sessionId: string, turn: RunningTurn, outcome: CompactOutcome): TurnResult {
  const error = outcome.ok ? null : { code: 'compact_failed', status: null, message: outcome.detail };
  return turn.result(
    sessionId,
    error
      ? { reason: 'error', detail: outcome.detail, error }
      : { reason: 'completed', detail: outcome.detail },
    { text: outcome.detail, numTurns: 0, permissionDenials: [], error },
  );
}
