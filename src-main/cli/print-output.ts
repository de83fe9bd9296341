import type { MessageItem } from '@shared/domain/messages';
import type { TurnResult } from '../harness/engine/query-engine';
import type { CostTracker, ModelUsageEntry } from '../harness/cost/tracker';
import type { LoopEvent } from '../harness/loop/types';

/** The `result` object of `-p --output-format json` (and the last line of stream-json), as claude prints it. */
export function resultObject(r: TurnResult, cost: CostTracker, durationMs: number) {
  const subtype =
    r.terminal.reason === 'completed'
      ? 'success'
      : r.terminal.reason === 'max_turns'
        ? 'error_max_turns'
        : // A spending limit (--max-budget-usd, or a settings budget nobody can be asked to raise).
          r.terminal.reason === 'budget'
          ? 'error_max_budget_usd'
          : 'error_during_execution';
  const modelUsage: Record<string, Omit<ModelUsageEntry, 'costMicros' | 'priced'> & { priced: boolean }> = {};
  for (const [model, u] of Object.entries(cost.modelUsage())) {
    modelUsage[model] = {
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheReadInputTokens: u.cacheReadInputTokens,
      cacheCreationInputTokens: u.cacheCreationInputTokens,
      webSearchRequests: u.webSearchRequests,
      costUSD: u.costUSD,
      priced: u.priced,
    };
  }
  return {
    type: 'result' as const,
    subtype,
    is_error: r.terminal.reason !== 'completed',
    result: r.terminal.reason === 'completed' ? r.text : (r.error?.message ?? r.terminal.detail),
    num_turns: r.numTurns,
    duration_ms: durationMs,
    duration_api_ms: r.durationApiMs,
    session_id: r.sessionId,
    total_cost_usd: cost.totalCostUsd,
    usage: {
      input_tokens: r.usage.inputTokens,
      output_tokens: r.usage.outputTokens,
      cache_creation_input_tokens: r.usage.cacheCreationInputTokens,
      cache_read_input_tokens: r.usage.cacheReadInputTokens,
    },
    modelUsage,
    permission_denials: r.permissionDenials,
    terminal_reason: r.terminal.reason,
  };
}

function apiMessage(item: MessageItem) {
  const content = item.content.map((b) => {
    if (b.type !== 'tool_result') return b;
    const { meta: _meta, ...rest } = b;
    return rest;
  });
  if (item.role === 'user') return { role: 'user' as const, content };
  const u = item.usage;
  const usage = u
    ? {
        input_tokens: u.inputTokens,
        output_tokens: u.outputTokens,
        cache_creation_input_tokens: u.cacheCreationInputTokens,
        cache_read_input_tokens: u.cacheReadInputTokens,
      }
    : undefined;
  return {
    id: item.apiId ?? item.id,
    type: 'message',
    role: 'assistant' as const,
    model: item.model,
    content,
    stop_reason: item.stopReason ?? null,
    usage,
  };
}

/** The stream-json line for a loop event, or null when it has none (deltas, progress; system lines need --verbose). */
export function streamLine(
  e: LoopEvent,
  sessionId: string,
  verbose: boolean,
  /** The Agent call a sub-agent's message belongs to (Claude Code's field); null for the main agent. */
  parentToolUseId: string | null = null,
): object | null {
  switch (e.type) {
    case 'assistant':
      return {
        type: 'assistant',
        message: apiMessage(e.item),
        parent_tool_use_id: parentToolUseId,
        session_id: sessionId,
      };
    case 'user':
      return {
        type: 'user',
        message: apiMessage(e.item),
        parent_tool_use_id: parentToolUseId,
        session_id: sessionId,
      };
    case 'transition':
      return verbose
        ? {
            type: 'system',
            subtype: 'transition',
            reason: e.transition.reason,
            detail: e.transition.detail,
            session_id: sessionId,
          }
        : null;
    case 'retry':
      return verbose
        ? {
            type: 'system',
            subtype: 'api_retry',
            attempt: e.attempt,
            max_retries: e.maxRetries,
            retry_delay_ms: e.delayMs,
            error: e.error.code,
            session_id: sessionId,
          }
        : null;
    case 'fallback':
      return verbose
        ? { type: 'system', subtype: 'fallback', from: e.from, to: e.to, session_id: sessionId }
        : null;
    case 'compaction':
      // Claude Code's marker where the conversation was compacted (snip counts as automatic).
      return e.ok
        ? {
            type: 'system',
            subtype: 'compact_boundary',
            session_id: sessionId,
            compact_metadata: {
              trigger: e.trigger === 'manual' ? 'manual' : 'auto',
              pre_tokens: e.tokensBefore,
            },
          }
        : null;
    case 'tombstone':
      return verbose
        ? { type: 'system', subtype: 'tombstone', message_id: e.itemId, session_id: sessionId }
        : null;
    default:
      return null;
  }
}
