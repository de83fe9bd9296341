import type { CostSum, PriceTableInfo, TokenCounts } from '@shared/domain/cost-report';
import { exactMicros, formatMicros } from '@shared/domain/money';

/**
 * How the dashboard writes its figures. Money is written as everywhere in the app (money.ts): two
 * decimals from a cent up, "<$0.01" for less than a cent but more than nothing, "$0.00" for nothing;
 * the exact figure goes in the hover title. A sum that includes records of a model the price table
 * does not know says so, and a sum of only such records is "unpriced", never "$0".
 */
export function formatSumCost(sum: Pick<CostSum, 'costMicros' | 'records' | 'unpricedRecords'>): string {
  return sumCost(sum, formatMicros);
}

/** The same sum to the micro-dollar, for a hover title or a tooltip. */
export function exactSumCost(sum: Pick<CostSum, 'costMicros' | 'records' | 'unpricedRecords'>): string {
  return sumCost(sum, exactMicros);
}

function sumCost(
  sum: Pick<CostSum, 'costMicros' | 'records' | 'unpricedRecords'>,
  money: (micros: number) => string,
): string {
  if (sum.unpricedRecords === 0) return money(sum.costMicros);
  if (sum.unpricedRecords === sum.records && sum.costMicros === 0) return 'unpriced';
  return `${money(sum.costMicros)} + unpriced`;
}

/**
 * Steps for a money axis: whole cents and up, in 1-2-5 steps ($0.01, $0.02, $0.05, $0.10 … $5, $10 …),
 * so an axis never needs more than two decimals.
 */
export const MONEY_AXIS_STEPS: number[] = [0.01, 0.1, 1, 10, 100, 1_000, 10_000, 100_000].flatMap((d) =>
  [1, 2, 5].map((k) => Math.round(k * d * 100) / 100),
);

/** The least top a money axis has, so that a day of a few tenths of a cent still gets a $0.01 step. */
export const MONEY_AXIS_MIN_TOP = 0.05;

/** A money axis label: $0, then two decimals while the steps are below a dollar, whole dollars above. */
export function formatAxisMoney(value: number, step: number): string {
  if (value === 0) return '$0';
  const digits = step >= 1 && Number.isInteger(step) ? 0 : 2;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
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
