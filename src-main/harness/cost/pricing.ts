import { DEMO_MODEL_ID } from '@shared/domain/models';
import type { TokenUsage } from '@shared/domain/usage';

/** USD per million tokens. Cache writes and reads are priced by the fixed multipliers below. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** List prices as published on 2026-12-02 (about-claude/pricing.md); dated so a stale table is obvious. */
export const PRICE_TABLE_DATE = '2026-12-02';

const PRICES: readonly [prefix: string, price: ModelPrice][] = [
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-6', { input: 5, output: 25 }],
  ['claude-opus-4-7', { input: 5, output: 25 }],
  ['claude-opus-4-8', { input: 5, output: 25 }],
  ['claude-opus-4-1', { input: 15, output: 75 }],
  ['claude-opus-4-20250514', { input: 15, output: 75 }],
  ['claude-opus-4-0', { input: 15, output: 75 }],
  ['claude-sonnet-4', { input: 3, output: 15 }], // 4, 4.5, 4.6 and dated ids
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4-5', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
  ['claude-3-haiku', { input: 0.25, output: 1.25 }],
];

export const CACHE_WRITE_5M_MULTIPLIER = 1.25;
export const CACHE_WRITE_1H_MULTIPLIER = 2;
export const CACHE_READ_MULTIPLIER = 0.1;

/** The price of a model id (dated ids and aliases match by prefix), or null when unknown. */
export function priceFor(model: string): ModelPrice | null {
  for (const [prefix, price] of PRICES) if (model.startsWith(prefix)) return price;
  return null;
}

export type CostResult =
  { kind: 'demo'; usd: 0 } | { kind: 'priced'; usd: number } | { kind: 'unpriced'; usd: 0 };

/**
 * Cost of one message's usage. Cache creation without a 5m/1h split is priced as 5-minute writes,
 * as the API's own accounting does.
 */
export function costOf(model: string, usage: TokenUsage, cacheWrite1hTokens = 0): CostResult {
  if (model === DEMO_MODEL_ID) return { kind: 'demo', usd: 0 };
  const price = priceFor(model);
  if (!price) return { kind: 'unpriced', usd: 0 };
  const perToken = price.input / 1e6;
  const write5m = usage.cacheCreationInputTokens - cacheWrite1hTokens;
  const usd =
    usage.inputTokens * perToken +
    usage.outputTokens * (price.output / 1e6) +
    write5m * perToken * CACHE_WRITE_5M_MULTIPLIER +
    cacheWrite1hTokens * perToken * CACHE_WRITE_1H_MULTIPLIER +
    usage.cacheReadInputTokens * perToken * CACHE_READ_MULTIPLIER;
  return { kind: 'priced', usd };
}
