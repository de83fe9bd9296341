import { z } from 'zod';

/**
 * The cost dashboard's questions and answers. The main process owns the usage ledger (one record per
 * API response, 100,000s of them) and answers with aggregates only: the window never receives records.
 * Money is integer micro-dollars everywhere (sums never drift); the window formats it.
 */

/** A calendar day in the main process's local time zone, `YYYY-MM-DD`. */
export const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export type Day = z.infer<typeof Day>;

/** Where usage comes from: Carapace's own transcripts, or Claude Code's (`~/.claude/projects`). */
export const UsageSource = z.enum(['carapace', 'claude-code']);
export type UsageSource = z.infer<typeof UsageSource>;

/** Tokens by kind; cache writes split by lifetime (1 h writes cost more than 5 min ones). */
export const TokenCounts = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheWrite5m: z.number().int().nonnegative(),
  cacheWrite1h: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
  webSearches: z.number().int().nonnegative(),
});
export type TokenCounts = z.infer<typeof TokenCounts>;

/** A sum of records: what it cost (priced records only), its tokens, and how many records were unpriced. */
export const CostSum = z.object({
  costMicros: z.number().int().nonnegative(),
  tokens: TokenCounts,
  records: z.number().int().nonnegative(),
  /** Records of models the price table does not know: their tokens are counted, their cost is not. */
  unpricedRecords: z.number().int().nonnegative(),
});
export type CostSum = z.infer<typeof CostSum>;

export const CostScope = z.discriminatedUnion('kind', [
  /** One project, by the id the workspace knows it by. */
  z.strictObject({ kind: z.literal('project'), projectId: z.string().min(1).max(500) }),
  z.strictObject({ kind: z.literal('all') }),
]);
export type CostScope = z.infer<typeof CostScope>;

export const CostQuery = z.strictObject({
  scope: CostScope,
  /** Inclusive, local days; at most ~10 years apart. */
  from: Day,
  to: Day,
  sources: z.array(UsageSource).min(1).max(2),
});
export type CostQuery = z.infer<typeof CostQuery>;

export const DayCost = z.object({
  day: Day,
  /** Per model: what the day's bars stack. */
  byModel: z.record(z.string(), CostSum),
  total: CostSum,
});
export type DayCost = z.infer<typeof DayCost>;

export const ModelCost = CostSum.extend({
  model: z.string(),
  /** False for a model the price table does not know. */
  priced: z.boolean(),
});
export type ModelCost = z.infer<typeof ModelCost>;

export const SessionCostRow = CostSum.extend({
  source: UsageSource,
  sessionId: z.string(),
  title: z.string(),
  /** The project folder the session ran in (Claude Code's: the `cwd` of its records). */
  projectPath: z.string(),
  models: z.array(z.string()),
  /** cacheRead / (input + cache writes + cacheRead); 0 when there was no input at all. */
  cacheHitRatio: z.number().min(0).max(1),
  /** Of `costMicros`, what sub-agents and teammates spent. */
  subAgentCostMicros: z.number().int().nonnegative(),
  /** User turns (the person's messages) that reached the model. */
  turns: z.number().int().nonnegative(),
  /** From the first record to the last, in ms. */
  durationMs: z.number().nonnegative(),
  firstAt: z.string(),
  lastAt: z.string(),
});
export type SessionCostRow = z.infer<typeof SessionCostRow>;

/** One user turn of one session: every API response from the person's message to the turn's end. */
export const TurnCost = CostSum.extend({
  source: UsageSource,
  sessionId: z.string(),
  title: z.string(),
  /** 1-based, in the session's main agent. */
  turn: z.number().int().positive(),
  at: z.string(),
  models: z.array(z.string()),
});
export type TurnCost = z.infer<typeof TurnCost>;

export const PriceTableInfo = z.object({ version: z.string(), date: Day });
export type PriceTableInfo = z.infer<typeof PriceTableInfo>;

export const CostReport = z.object({
  query: CostQuery,
  priceTable: PriceTableInfo,
  total: CostSum,
  /** Every day of the range, empty days included, oldest first. */
  days: z.array(DayCost),
  /** Most expensive first. */
  models: z.array(ModelCost),
  /** Most expensive first (the window sorts again as the person asks). */
  sessions: z.array(SessionCostRow),
  /** The most expensive turns of the range, at most 20. */
  topTurns: z.array(TurnCost),
  /** Whether Claude Code's transcripts exist on this machine and are read (the toggle's state). */
  claudeCode: z.object({ available: z.boolean(), enabled: z.boolean() }),
  /** Transcript lines that could not be read, and other notes worth showing (never silent). */
  problems: z.array(z.string()),
  /** When the ledger was last brought up to date, ISO. */
  builtAt: z.string(),
});
export type CostReport = z.infer<typeof CostReport>;

/** One member of a session (its main agent, a sub-agent, a teammate). */
export const MemberCost = CostSum.extend({
  /** null for the session's main agent. */
  agentId: z.string().nullable(),
  name: z.string(),
  agentType: z.string(),
});
export type MemberCost = z.infer<typeof MemberCost>;

/** The cost view inside a session: by model, by turn, by member. */
export const SessionCostDetail = z.object({
  sessionId: z.string(),
  priceTable: PriceTableInfo,
  total: CostSum,
  byModel: z.array(ModelCost),
  /** In turn order. */
  byTurn: z.array(TurnCost),
  byMember: z.array(MemberCost),
});
export type SessionCostDetail = z.infer<typeof SessionCostDetail>;

/** Spending limits in USD (settings `budgets`); a missing limit is no limit. */
export const Budgets = z.strictObject({
  /** One session, its sub-agents and teammates included. */
  sessionUsd: z.number().positive().max(1_000_000).optional(),
  /** One project, per local day, all its sessions. */
  projectDailyUsd: z.number().positive().max(1_000_000).optional(),
  /** Everything Carapace runs, per local day. */
  dailyUsd: z.number().positive().max(1_000_000).optional(),
});
export type Budgets = z.infer<typeof Budgets>;

export const BudgetKind = z.enum(['session', 'projectDaily', 'daily', 'maxBudgetUsd']);
export type BudgetKind = z.infer<typeof BudgetKind>;

/** A session paused at a limit, waiting for the person (an Inbox item). */
export const BudgetRequestView = z.object({
  id: z.string(),
  sessionId: z.string(),
  kind: BudgetKind,
  limitMicros: z.number().int().nonnegative(),
  spentMicros: z.number().int().nonnegative(),
  /** What "allow more" offers by default, in micro-dollars ($1 unless the limit is small). */
  suggestedMoreMicros: z.number().int().positive(),
  /** False when the limit reached is set by the managed policy: the person can only stop. */
  canAllowMore: z.boolean(),
  createdAt: z.string(),
});
export type BudgetRequestView = z.infer<typeof BudgetRequestView>;

export const BudgetResponse = z.strictObject({
  requestId: z.string().min(1).max(100),
  decision: z.enum(['allow_more', 'stop']),
  /** For allow_more: how much more, in USD. */
  moreUsd: z.number().positive().max(1_000_000).optional(),
});
export type BudgetResponse = z.infer<typeof BudgetResponse>;

/** The dashboard's budget panel: the limits and where each stands today. */
export const BudgetStatus = z.object({
  budgets: Budgets,
  /** Spent today in the open project (micro-dollars), and everywhere. */
  projectTodayMicros: z.number().int().nonnegative().nullable(),
  allTodayMicros: z.number().int().nonnegative(),
});
export type BudgetStatus = z.infer<typeof BudgetStatus>;
