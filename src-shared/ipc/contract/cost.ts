import { z } from 'zod';
import {
  BudgetKind,
  BudgetRequestView,
  BudgetResponse,
  BudgetStatus,
  CostQuery,
  CostReport,
  SessionCostDetail,
} from '../../domain/cost-report';
import { channel, Empty, SessionRef } from './common';

/**
 * Cost: the dashboard's report (aggregates computed in main from the usage ledger), one session's
 * cost view, exports, and budgets (limits, and the Inbox items of sessions paused at one).
 */

const Limit = z.number().positive().max(1_000_000).nullable().optional();

export const CostTable = z.enum(['days', 'models', 'sessions', 'turns']);
export type CostTable = z.infer<typeof CostTable>;

export const requests = {
  'cost.report': channel(CostQuery, CostReport),
  'cost.session': channel(SessionRef, SessionCostDetail),
  /** One table of a report as a file's text; the window saves it. */
  'cost.export': channel(
    z.strictObject({ query: CostQuery, table: CostTable, format: z.enum(['csv', 'json']) }),
    z.object({ fileName: z.string(), mimeType: z.string(), text: z.string() }),
  ),
  /** The limits and today's spend (of the project when one is given). */
  'budgets.get': channel(z.strictObject({ projectId: z.string().min(1).max(500).optional() }), BudgetStatus),
  /** Changes limits in the user's settings; null removes one. Project settings can never set them. */
  'budgets.set': channel(
    z.strictObject({
      projectId: z.string().min(1).max(500).optional(),
      sessionUsd: Limit,
      projectDailyUsd: Limit,
      dailyUsd: Limit,
    }),
    BudgetStatus,
  ),
  /** Sessions paused at a limit, waiting for an answer (Inbox items). */
  'budgets.pending': channel(Empty, z.array(BudgetRequestView)),
  'budgets.respond': channel(BudgetResponse, z.object({ ok: z.literal(true) })),
} as const;

export const events = {
  'budgets.requested': z.object({ request: BudgetRequestView }),
  'budgets.resolved': z.object({
    requestId: z.string(),
    sessionId: z.string(),
    decision: z.enum(['allow_more', 'stop', 'withdrawn']),
  }),
  /** 80% of a limit reached: a quiet warning. */
  'budgets.warning': z.object({
    sessionId: z.string(),
    kind: BudgetKind,
    spentMicros: z.number().int().nonnegative(),
    limitMicros: z.number().int().nonnegative(),
  }),
  /** New usage was recorded (at most about once a second): an open dashboard refreshes. */
  'cost.updated': z.object({ projectId: z.string().nullable() }),
} as const;
