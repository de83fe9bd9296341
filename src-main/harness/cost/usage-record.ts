import type { TokenCounts, UsageSource } from '@shared/domain/cost-report';

/**
 * One API response in the usage ledger, from either source. The ledger is a cache of these, rebuilt
 * from the transcripts (Carapace's `usage` lines, Claude Code's assistant lines) whenever it is
 * missing, stale or corrupt.
 */
export interface UsageRecord {
  source: UsageSource;
  /**
   * What a response is deduplicated by across every file of its source: Carapace's API message id;
   * Claude Code's `${message.id}:${requestId}` as ccusage keys it. null: never deduplicated.
   */
  key: string | null;
  /** Epoch ms. */
  at: number;
  sessionId: string;
  /** null for the session's main agent; a sub-agent's or teammate's id otherwise. */
  agentId: string | null;
  model: string;
  tokens: TokenCounts;
  /** Integer micro-dollars; null when the model is not in the price table. */
  costMicros: number | null;
  priceVersion: string | null;
  /** The main agent's user turn (1-based) this response belongs to; 0 when unknown. */
  turn: number;
}

/** What a transcript file says about its session, beside its records. */
export interface TranscriptInfo {
  source: UsageSource;
  sessionId: string;
  projectPath: string;
  title: string;
  /** For a sub-agent's or teammate's file: who it is. */
  agent: { agentId: string; name: string; agentType: string } | null;
}
