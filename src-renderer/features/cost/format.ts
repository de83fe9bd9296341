import { formatCost } from '@shared/domain/cost';
import type { CostSum, PriceTableInfo, TokenCounts } from '@shared/domain/cost-report';

/**
 * How the dashboard writes its figures. Money arrives as integer micro-dollars; a sum that includes
 * records of a model the price table does not know says so, and a sum of only such records is
 * "unpriced", never "$0".
 */
export function formatMicros(micros: number): string {
  return formatCost(micros / 1_000_000);
}

export function formatSumCost(sum: Pick<CostSum, 'costMicros' | 'records' | 'unpricedRecords'>): string {
  if (sum.unpricedRecords === 0) return formatMicros(sum.costMicros);
  if (sum.unpricedRecords === sum.records && sum.costMicros === 0) return 'unpriced';
  return `${formatMicros(sum.costMicros)} + unpriced`;
}

export function formatTokens(n: number): string {
  return n.toLocaleString('en-US');
}

/** Short form for chart axes: 1.2k, 3.4M. */
export function formatTokensShort(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 1_000) return `${trim(n / 1_000)}k`;
  return String(n);
}

const trim = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1).replace(/\.0$/, ''));

export function cacheWrites(t: TokenCounts): number {
  return t.cacheWrite5m + t.cacheWrite1h;
}

export function allTokens(t: TokenCounts): number {
  return t.input + t.output + t.cacheWrite5m + t.cacheWrite1h + t.cacheRead;
}

export function formatRatio(r: number): string {
  return `${(r * 100).toFixed(0)}%`;
}

/** 45 s, 12 min, 3 h 5 min. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `${h} h` : `${h} h ${rest} min`;
}

export function estimateLabel(table: PriceTableInfo): string {
  return `Estimated from list prices, table ${table.version} (${table.date})`;
}

/** A model id shortened for a legend: the `claude-` prefix says nothing here. */
export function shortModel(model: string): string {
  return model.replace(/^claude-/, '');
}
