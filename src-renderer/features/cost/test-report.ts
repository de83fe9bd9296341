import type { CostReport, CostSum, SessionCostRow, TokenCounts } from '@shared/domain/cost-report';

/** Builders of report pieces for the dashboard's tests. */
export const tokens = (over: Partial<TokenCounts> = {}): TokenCounts => ({
  input: 0,
  output: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 0,
  webSearches: 0,
  ...over,
});

export const sum = (
  costMicros: number,
  t: Partial<TokenCounts> = {},
  unpricedRecords = 0,
  records = 1,
): CostSum => ({
  costMicros,
  tokens: tokens(t),
  records,
  unpricedRecords,
});

export const sessionRow = (
  over: Partial<SessionCostRow> & Pick<SessionCostRow, 'sessionId'>,
): SessionCostRow => ({
  ...sum(0),
  source: 'carapace',
  title: over.sessionId,
  projectPath: '/work/p',
  models: ['claude-sonnet-4-5'],
  cacheHitRatio: 0,
  subAgentCostMicros: 0,
  turns: 1,
  durationMs: 60_000,
  firstAt: '2026-12-03T10:00:00.000Z',
  lastAt: '2026-12-03T10:01:00.000Z',
  ...over,
});

export function report(over: Partial<CostReport> = {}): CostReport {
  return {
    query: {
      scope: { kind: 'project', projectId: 'p' },
      from: '2026-12-01',
      to: '2026-12-03',
      sources: ['carapace'],
    },
    priceTable: { version: '2026-11-01.1', date: '2026-11-01' },
    total: sum(0, {}, 0, 0),
    days: [],
    models: [],
    sessions: [],
    topTurns: [],
    claudeCode: { available: false, enabled: false },
    problems: [],
    builtAt: '2026-12-03T12:00:00.000Z',
    ...over,
  };
}
