import type { MessageItem } from '@shared/domain/messages';
import type { DescribedApiError } from '../model/api-errors';
import type { ToolUseContext } from '../tools/tool';

export { CONTINUE_REASONS, type Continue, type ContinueReason } from '../events/agent-event';
import type { Continue } from '../events/agent-event';

/** `budget`: a spending limit was reached before a model request, and the turn stopped there. */
export const TERMINAL_REASONS = [
  'completed',
  'max_turns',
  'aborted',
  'error',
  'prompt_too_long',
  'budget',
] as const;
export type TerminalReason = (typeof TERMINAL_REASONS)[number];

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

export type { LoopEvent } from '../events/agent-event';
