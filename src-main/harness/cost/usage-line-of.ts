import { priceResponse, tokenCountsOf } from './pricing';
import type { UsageReport } from './tracker';
import type { UsageLine } from './usage-line';

/**
 * The transcript line for one API response's final usage, priced now with the current table: the
 * line keeps the figure and the table's version, so a later table never changes past spend.
 */
export function usageLineOf(report: UsageReport, turn: number, at = new Date().toISOString()): UsageLine {
  const tokens = tokenCountsOf(report.usage, report.cacheWrite1hTokens ?? 0, report.webSearchRequests ?? 0);
  const price = priceResponse(report.model, tokens);
  return {
    type: 'usage',
    apiId: report.apiId,
    model: report.model,
    tokens,
    // Unknown model: null, never 0. The demo model is free, and priced by no table.
    costMicros: price.kind === 'priced' ? price.micros : price.kind === 'demo' ? 0 : null,
    priceVersion: price.kind === 'priced' ? price.version : null,
    turn,
    purpose: report.purpose ?? 'turn',
    ...(report.durationMs !== undefined ? { durationMs: Math.max(0, report.durationMs) } : {}),
    at,
  };
}
