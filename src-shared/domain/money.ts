/**
 * How the app writes money, in one way everywhere (the status bar, the sidebar, agent and team cards,
 * the cost dashboard, budget questions and notices, `-p`'s budget lines): two decimals from a cent up,
 * with thousands separators ($0.50, $1,234.57); "<$0.01" for less than a cent but more than nothing,
 * so a small cost never reads as nothing; "$0.00" for nothing. Where the rounding hides something,
 * the exact figure ({@link exactMicros}) goes in the hover title.
 *
 * Money is integer micro-dollars in the ledger and dollars in a session's summary; both come here.
 */
export function formatMicros(micros: number): string {
  if (!Number.isFinite(micros)) return '$—';
  if (micros < 0) return `-${formatMicros(-micros)}`;
  if (micros > 0 && micros < 10_000) return '<$0.01';
  return `$${(micros / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** The exact figure, to the micro-dollar, with at least two decimals: $0.00123, $12.345678, $0.50. */
export function exactMicros(micros: number): string {
  if (!Number.isFinite(micros)) return '$—';
  if (micros < 0) return `-${exactMicros(-micros)}`;
  const [whole = '0', fraction = ''] = (micros / 1_000_000).toFixed(6).split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `$${Number(whole).toLocaleString('en-US')}.${trimmed}`;
}

/** {@link formatMicros} for an amount in dollars. */
export function formatUsd(usd: number): string {
  return formatMicros(Math.round(usd * 1_000_000));
}

/** {@link exactMicros} for an amount in dollars. */
export function exactUsd(usd: number): string {
  return exactMicros(Math.round(usd * 1_000_000));
}
