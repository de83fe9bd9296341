import type { CostReport, CostSum } from '@shared/domain/cost-report';
import type { Cell } from './csv';
import { usdOfMicros } from './money';

/**
 * The dashboard's tables as flat rows, one definition per table shared by CSV and JSON, so both
 * say the same thing. A cost cell is empty (null) when every record of the row is unpriced: an
 * unknown model's spend is not known, and $0 would say it is.
 */
export type ExportTableName = 'days' | 'models' | 'sessions' | 'turns';

interface Table<R> {
  rows: (report: CostReport) => readonly R[];
  columns: readonly { name: string; value: (row: R) => Cell }[];
}

const costUsd = (s: CostSum): string | null =>
  s.records > 0 && s.unpricedRecords === s.records ? null : usdOfMicros(s.costMicros);

/** The columns every sum has: its cost and its tokens by kind. */
function sumColumns(): { name: string; value: (row: CostSum) => Cell }[] {
  return [
    { name: 'cost_usd', value: (r) => costUsd(r) },
    { name: 'input_tokens', value: (r) => r.tokens.input },
    { name: 'output_tokens', value: (r) => r.tokens.output },
    { name: 'cache_write_5m_tokens', value: (r) => r.tokens.cacheWrite5m },
    { name: 'cache_write_1h_tokens', value: (r) => r.tokens.cacheWrite1h },
    { name: 'cache_read_tokens', value: (r) => r.tokens.cacheRead },
    { name: 'web_searches', value: (r) => r.tokens.webSearches },
    { name: 'responses', value: (r) => r.records },
    { name: 'unpriced_responses', value: (r) => r.unpricedRecords },
  ];
}

type DayRow = CostReport['days'][number]['total'] & { day: string; models: string };
type ModelRow = CostReport['models'][number];
type SessionRow = CostReport['sessions'][number];
type TurnRow = CostReport['topTurns'][number];

const DAYS: Table<DayRow> = {
  rows: (r) =>
    r.days.map((d) => ({ ...d.total, day: d.day, models: Object.keys(d.byModel).sort().join(' ') })),
  columns: [
    { name: 'day', value: (r) => r.day },
    { name: 'models', value: (r) => r.models },
    ...sumColumns(),
  ],
};

const MODELS: Table<ModelRow> = {
  rows: (r) => r.models,
  columns: [
    { name: 'model', value: (r) => r.model },
    { name: 'priced', value: (r) => r.priced },
    ...sumColumns(),
  ],
};

const SESSIONS: Table<SessionRow> = {
  rows: (r) => r.sessions,
  columns: [
    { name: 'source', value: (r) => r.source },
    { name: 'session_id', value: (r) => r.sessionId },
    { name: 'title', value: (r) => r.title },
    { name: 'project_path', value: (r) => r.projectPath },
    { name: 'models', value: (r) => r.models.join(' ') },
    ...sumColumns(),
    { name: 'cache_hit_ratio', value: (r) => Number(r.cacheHitRatio.toFixed(4)) },
    { name: 'sub_agent_cost_usd', value: (r) => usdOfMicros(r.subAgentCostMicros) },
    { name: 'turns', value: (r) => r.turns },
    { name: 'duration_seconds', value: (r) => Math.round(r.durationMs / 1000) },
    { name: 'first_at', value: (r) => r.firstAt },
    { name: 'last_at', value: (r) => r.lastAt },
  ],
};

const TURNS: Table<TurnRow> = {
  rows: (r) => r.topTurns,
  columns: [
    { name: 'source', value: (r) => r.source },
    { name: 'session_id', value: (r) => r.sessionId },
    { name: 'title', value: (r) => r.title },
    { name: 'turn', value: (r) => r.turn },
    { name: 'at', value: (r) => r.at },
    { name: 'models', value: (r) => r.models.join(' ') },
    ...sumColumns(),
  ],
};

/** Header and rows of one table, cells in column order. */
export function tableCells(report: CostReport, table: ExportTableName): { header: string[]; rows: Cell[][] } {
  const t = { days: DAYS, models: MODELS, sessions: SESSIONS, turns: TURNS }[table] as Table<unknown>;
  return {
    header: t.columns.map((c) => c.name),
    rows: t.rows(report).map((row) => t.columns.map((c) => c.value(row))),
  };
}
