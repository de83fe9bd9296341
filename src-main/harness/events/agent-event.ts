import type { MessageItem, ToolResultBlock, ToolUseBlock, TranscriptItem } from '@shared/domain/messages';
import type { PermissionDenial } from '@shared/domain/permissions';
import type { TokenUsage } from '@shared/domain/usage';
import type { DescribedApiError } from '../model/api-errors';

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

export interface Continue {
  reason: ContinueReason;
  detail: string;
}

/** Everything the loop reports, in order; a consumer persists and displays from these alone. */
export type LoopEvent =
  | { type: 'assistant_start'; itemId: string; model: string }
  | { type: 'text_delta'; itemId: string; index: number; text: string }
  | { type: 'tool_start'; itemId: string; block: ToolUseBlock }
  /** Live output of a running tool: a line of text, or an event of the agent it started. */
  | { type: 'tool_progress'; toolUseId: string; text: string; agent?: undefined }
  | { type: 'tool_progress'; toolUseId: string; agent: AgentEvent; text?: undefined }
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
  /**
   * An automatic compaction ran before a request: its summary (the new context's first message), or
   * why it failed; `breakerOpen` once failures in a row have switched it off for the session. `snip`:
   * the middle of a long history was dropped (no model call; the first message carries the marker).
   * `manual`: the person's `/compact`.
   */
  | {
      type: 'compaction';
      trigger: 'auto' | 'snip' | 'manual';
      ok: boolean;
      summary: MessageItem | null;
      breakerOpen: boolean;
      detail: string;
      /** Tokens the context held before (the last response's usage plus an estimate for the rest). */
      tokensBefore: number;
      /** Messages the summary replaced (a successful auto or manual compaction). */
      summarized?: number;
    }
  | {
      type: 'usage';
      model: string;
      apiId: string | null;
      usage: TokenUsage;
      cacheWrite1hTokens: number;
      webSearchRequests: number;
      durationMs: number;
      /** Set when the request was not the turn's own (a compaction); the usage line records it. */
      purpose?: 'compact';
    }
  | { type: 'denied'; denial: PermissionDenial }
  /** A tool changed the working directory (a `cd`); the next turn starts there. */
  | { type: 'cwd'; cwd: string }
  | { type: 'error'; error: DescribedApiError };

/** What an engine reports: the loop's events, plus every item it adds to the transcript. */
export type EngineEvent = LoopEvent | { type: 'item'; item: TranscriptItem };

/** Which agent an event comes from: the session's main agent has the session's id and no parent. */
export interface AgentTag {
  agentId: string;
  parentId: string | null;
}

/** An agent starting or ending, reported by whoever started it (the Agent tool, a team). */
export type AgentLifecycle =
  { type: 'agent_started'; info: AgentInfo } | { type: 'agent_ended'; outcome: AgentOutcome };

/** Everything an agent reports, with its identity, so nested agents' events can travel up unchanged. */
export type AgentEvent = (EngineEvent | AgentLifecycle) & AgentTag;

export interface AgentInfo {
  agentId: string;
  parentId: string | null;
  /** The tool call that started it (sub-agents), or null (teammates). */
  toolUseId: string | null;
  /** Shown name: the worker's name, or the call's description. */
  name: string;
  agentType: string;
  model: string;
  startedAt: string;
  /** Where its own transcript is kept. */
  transcriptFile: string;
}

export interface AgentOutcome {
  /** How its last run ended (a terminal reason of the loop). */
  reason: string;
  /** Its final text. */
  text: string;
  endedAt: string;
  verdict?: { verdict: 'PASS' | 'FAIL'; reasons: string; found: boolean } | undefined;
}
