import { z } from 'zod';
import { BudgetKind, TokenCounts } from '@shared/domain/cost-report';

/**
 * What the transcript keeps of each API response's usage: one `usage` line per response, written by
 * the agent whose request it was (a sub-agent's and a teammate's go to their own transcripts). The
 * usage ledger is rebuilt from these lines, so they carry everything it needs, including the price
 * as it was when the response arrived: a later price table never changes past spend.
 */
export const UsageLine = z.object({
  type: z.literal('usage'),
  /** The Messages API message id; null when the response had none (counted, never deduplicated). */
  apiId: z.string().nullable(),
  model: z.string(),
  tokens: TokenCounts,
  /** Integer micro-dollars; null for a model the price table does not know (never priced at 0). */
  costMicros: z.number().int().nonnegative().nullable(),
  /** The price table version it was priced with (null when unpriced or the demo model). */
  priceVersion: z.string().nullable(),
  /** This agent's user turn (1-based) the response belongs to; 0 outside any turn. */
  turn: z.number().int().nonnegative(),
  /** What the request was for: the turn itself, or a side request made for it. */
  purpose: z.enum(['turn', 'memory-selector', 'consolidation', 'compact', 'other']),
  durationMs: z.number().nonnegative().optional(),
  at: z.string(),
});
export type UsageLine = z.infer<typeof UsageLine>;

/** A budget event of a session: a warning at 80%, a pause at 100%, and the person's answer. */
export const BudgetLine = z.object({
  type: z.literal('budget'),
  event: z.enum(['warning', 'paused', 'allowed', 'stopped']),
  kind: BudgetKind,
  limitMicros: z.number().int().nonnegative(),
  spentMicros: z.number().int().nonnegative(),
  /** For `allowed`: how much more was allowed. */
  moreMicros: z.number().int().nonnegative().optional(),
  at: z.string(),
});
export type BudgetLine = z.infer<typeof BudgetLine>;
