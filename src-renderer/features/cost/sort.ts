import type { SessionCostRow } from '@shared/domain/cost-report';
import { cacheWrites } from './format';

/** The per-session table's sortable columns and how each one orders rows. */
export const SESSION_COLUMNS = [
  { key: 'title', label: 'Session', numeric: false },
  { key: 'models', label: 'Models', numeric: false },
  { key: 'input', label: 'Input', numeric: true },
  { key: 'output', label: 'Output', numeric: true },
  { key: 'cacheWrite', label: 'Cache write', numeric: true },
  { key: 'cacheRead', label: 'Cache read', numeric: true },
  { key: 'hitRatio', label: 'Cache hits', numeric: true },
  { key: 'cost', label: 'Cost', numeric: true },
  { key: 'subAgents', label: 'Sub-agents', numeric: true },
  { key: 'turns', label: 'Turns', numeric: true },
  { key: 'duration', label: 'Duration', numeric: true },
] as const;

export type SessionSortKey = (typeof SESSION_COLUMNS)[number]['key'];
export interface SortState {
  key: SessionSortKey;
  dir: 'asc' | 'desc';
}

function value(row: SessionCostRow, key: SessionSortKey): number | string {
  switch (key) {
    case 'title':
      return row.title.toLowerCase();
    case 'models':
      return row.models.join(', ');
    case 'input':
      return row.tokens.input;
    case 'output':
      return row.tokens.output;
    case 'cacheWrite':
      return cacheWrites(row.tokens);
    case 'cacheRead':
      return row.tokens.cacheRead;
    case 'hitRatio':
      return row.cacheHitRatio;
    case 'cost':
      return row.costMicros;
    case 'subAgents':
      return row.subAgentCostMicros;
    case 'turns':
      return row.turns;
    case 'duration':
      return row.durationMs;
  }
}

/** A sorted copy; ties keep the order the report gave (most expensive first). */
export function sortSessions(rows: readonly SessionCostRow[], sort: SortState): SessionCostRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      const x = value(a.row, sort.key);
      const y = value(b.row, sort.key);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((e) => e.row);
}

/** Clicking a header: the same column flips direction; a new one starts with numbers high-first. */
export function nextSort(current: SortState, key: SessionSortKey): SortState {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  const numeric = SESSION_COLUMNS.find((c) => c.key === key)?.numeric ?? false;
  return { key, dir: numeric ? 'desc' : 'asc' };
}
