import type { MessageItem, ToolResultBlock, ToolUseBlock } from '@shared/domain/messages';
import type { PermissionDenial } from '@shared/domain/permissions';
import type { TokenUsage } from '@shared/domain/usage';
import type { DescribedApiError } from '../model/api-errors';
import type { ToolUseContext } from '../tools/tool';

/** Why the loop went round again: exactly these seven. */
export const CONTINUE_REASONS = [
  'next_turn',
  'reactive_compact_retry',
  'collapse_drain_retry',
  'max_output_tokens_escalate',
  'max_output_tokens_recovery',
  'stop_hook_blocking',
  'token_budget_continuation',
] as const;
export type ContinueReason = (typeof CONTINUE_REASONS)[number];

export const TERMINAL_REASONS = ['completed', 'max_turns', 'aborted', 'error', 'prompt_too_long'] as const;
export type TerminalReason = (typeof TERMINAL_REASONS)[number];

export interface Continue {
  reason: ContinueReason;
  detail: string;
}

export interface Terminal {
  reason: TerminalReason;
  detail: string;
  error?: DescribedApiError;
}

/** The loop's whole state between iterations. Every continue is `state = {...}; continue`. */
export interface LoopState {
  /** The context window: what the next request sends. */
  messages: MessageItem[];
  toolUseContext: ToolUseContext;
  autoCompactTracking: { consecutiveFailures: number } | undefined;
  maxOutputTokensRecoveryCount: number;
  hasAttemptedReactiveCompact: boolean;
  /** Summaries of tool use for the next request (not generated yet; kept for the shape of the state). */
  pendingToolUseSummary: Promise<string | null> | undefined;
  turnCount: number;
  transition: Continue | undefined;
  /** Set after a max_tokens stop: the raised output limit for the retry. */
  maxOutputTokensOverride: number | undefined;
  /** Token-budget bookkeeping for this user turn. */
  budget: { outputTokens: number; continuations: number; lowStreak: number };
  stopHookContinuations: number;
}

/** Everything the loop reports, in order; a consumer persists and displays from these alone. */
export type LoopEvent =
  | { type: 'assistant_start'; itemId: string; model: string }
  | { type: 'text_delta'; itemId: string; index: number; text: string }
  | { type: 'tool_start'; itemId: string; block: ToolUseBlock }
  | { type: 'tool_progress'; toolUseId: string; text: string }
  | { type: 'tool_result'; block: ToolResultBlock }
  /** A finished assistant message that stays in the conversation. */
  | { type: 'assistant'; item: MessageItem }
  /** A user-role message the harness adds: tool results or a nudge. */
  | { type: 'user'; item: MessageItem }
  /** Withdraw a message already shown (a failed attempt, a reply regenerated with a larger limit). */
  | { type: 'tombstone'; itemId: string }
  | { type: 'transition'; transition: Continue }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: DescribedApiError }
  | { type: 'fallback'; from: string; to: string }
  | {
      type: 'context_replaced';
      messages: MessageItem[];
      how: 'collapse' | 'compact';
      keepFromId: string | null;
      summary: MessageItem | null;
      affected: number;
    }
  | {
      type: 'usage';
      model: string;
      apiId: string | null;
      usage: TokenUsage;
      cacheWrite1hTokens: number;
      webSearchRequests: number;
      durationMs: number;
    }
  | { type: 'denied'; denial: PermissionDenial }
  /** A tool changed the working directory (a `cd`); the next turn starts there. */
  | { type: 'cwd'; cwd: string }
  | { type: 'error'; error: DescribedApiError };
