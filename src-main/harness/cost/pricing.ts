import { z } from 'zod';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import type { TokenCounts } from '@shared/domain/cost-report';
import type { TokenUsage } from '@shared/domain/usage';
import priceTable from '../../../resources/prices.json';

/**
 * The price table is data (resources/prices.json, bundled into the build), not code: model ids and
 * prices change more often than this file. It is parsed once at load, so a malformed edit fails
 * loudly (the first import throws) instead of pricing anything at zero.
 */

/** USD per million tokens, which is also micro-dollars per token. */
const Rate = z.number().nonnegative();

const TokenPrices = z.strictObject({
  input: Rate,
  output: Rate,
  cacheWrite5m: Rate,
  cacheWrite1h: Rate,
  cacheRead: Rate,
});
export type TokenPrices = z.infer<typeof TokenPrices>;

const ModelEntry = TokenPrices.extend({
  name: z.string().min(1),
  /** Id prefixes: a dated id (`…-20250929`), a cloud id (`…@20250929`) or an alias matches. */
  ids: z.array(z.string().min(1)).min(1),
  /**
   * Sonnet 4 / 4.5 with the 1M beta: a request with more than `aboveInputTokens` input tokens (cache
   * reads and writes included) bills ALL its tokens at these prices.
   */
  longContext: TokenPrices.extend({ aboveInputTokens: z.number().int().positive() }).optional(),
  /** Why an entry may be doubtful (a snapshot price, an assumed id). */
  note: z.string().optional(),
});
export type ModelEntry = z.infer<typeof ModelEntry>;

export const PriceTableFile = z
  .object({
    version: z.string().min(1),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    source: z.string().optional(),
    unit: z.literal('USD per million tokens'),
    webSearchPerRequest: Rate,
    models: z.array(ModelEntry).min(1),
  })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    for (const m of t.models)
      for (const id of m.ids) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `model id ${id} is listed twice` });
        seen.add(id);
      }
  });
export type PriceTableFile = z.infer<typeof PriceTableFile>;

/** Parses a price table, throwing an error that names the bad field. */
export function parsePriceTable(raw: unknown): PriceTableFile {
  const r = PriceTableFile.safeParse(raw);
  if (!r.success)
    throw new Error(`resources/prices.json is not a valid price table: ${z.prettifyError(r.error)}`);
  return r.data;
}

const TABLE = parsePriceTable(priceTable);

/** The table every new record is priced with; records keep the version they were priced with. */
export const PRICE_TABLE: { version: string; date: string } = Object.freeze({
  version: TABLE.version,
  date: TABLE.date,
});
/** @deprecated use PRICE_TABLE.date */
export const PRICE_TABLE_DATE = TABLE.date;

/** One web search request, in micro-dollars. */
export const WEB_SEARCH_MICROS = Math.round(TABLE.webSearchPerRequest * 1e6);

/** Longest prefixes first, so `claude-opus-4-1` wins over any shorter id that also matches. */
const BY_PREFIX: readonly [string, ModelEntry][] = TABLE.models
  .flatMap((m) => m.ids.map((id) => [id, m] as [string, ModelEntry]))
  .sort((a, b) => b[0].length - a[0].length);

/** The table's entry for a model id (longest matching prefix), or null when the table does not know it. */
export function modelEntry(model: string): ModelEntry | null {
  const base = baseModelId(model);
  for (const [prefix, entry] of BY_PREFIX) if (base.startsWith(prefix)) return entry;
  return null;
}

/** Bedrock's `[us.|eu.|apac.|global.]anthropic.` and an ARN's path before the id. */
const BEDROCK_PREFIX = /^(?:.*\/)?(?:[a-z]{2,8}\.)?anthropic\./;

/**
 * The Anthropic model id inside a cloud provider's: Bedrock's `us.anthropic.claude-sonnet-4-5-20250929-v1:0`
 * (or an inference profile's ARN ending in it) is `claude-sonnet-4-5-20250929-v1:0`, priced as its base
 * model by prefix; Vertex's `claude-sonnet-4-5@20250929` already starts with the base id.
 */
export function baseModelId(model: string): string {
  return model.replace(BEDROCK_PREFIX, '');
}

/** Base input and output price of a model (USD per million tokens), or null when unknown. */
export function priceFor(model: string): { input: number; output: number } | null {
  const e = modelEntry(model);
  return e ? { input: e.input, output: e.output } : null;
}

export type PricedResponse =
  { kind: 'priced'; micros: number; version: string } | { kind: 'unpriced' } | { kind: 'demo' };

/**
 * What one API response cost, in integer micro-dollars, rounded once. An unknown model is
 * `unpriced` (never $0); the free scripted demo model is `demo`.
 */
export function priceResponse(model: string, t: TokenCounts): PricedResponse {
  if (model === DEMO_MODEL_ID) return { kind: 'demo' };
  const entry = modelEntry(model);
  if (!entry) return { kind: 'unpriced' };
  const inputSide = t.input + t.cacheWrite5m + t.cacheWrite1h + t.cacheRead;
  const lc = entry.longContext;
  const p: TokenPrices = lc && inputSide > lc.aboveInputTokens ? lc : entry;
  // $/MTok is µ$/token: no unit conversion, one rounding for the whole response.
  const micros =
    t.input * p.input +
    t.output * p.output +
    t.cacheWrite5m * p.cacheWrite5m +
    t.cacheWrite1h * p.cacheWrite1h +
    t.cacheRead * p.cacheRead +
    t.webSearches * TABLE.webSearchPerRequest * 1e6;
  return { kind: 'priced', micros: Math.round(micros), version: TABLE.version };
}

/**
 * The API's usage as the price table's token kinds. `cacheCreationInputTokens` holds both lifetimes;
 * without a 1 h figure every write is a 5 min one, as the API's own accounting does.
 */
export function tokenCountsOf(usage: TokenUsage, cacheWrite1h: number, webSearches: number): TokenCounts {
  const oneHour = Math.min(Math.max(0, cacheWrite1h), usage.cacheCreationInputTokens);
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cacheWrite5m: usage.cacheCreationInputTokens - oneHour,
    cacheWrite1h: oneHour,
    cacheRead: usage.cacheReadInputTokens,
    webSearches: Math.max(0, webSearches),
  };
}

export type CostResult =
  { kind: 'demo'; usd: 0 } | { kind: 'priced'; usd: number } | { kind: 'unpriced'; usd: 0 };

/** Cost of one message's usage in USD (tokens only); kept for callers that want dollars. */
export function costOf(model: string, usage: TokenUsage, cacheWrite1hTokens = 0): CostResult {
  const r = priceResponse(model, tokenCountsOf(usage, cacheWrite1hTokens, 0));
  return r.kind === 'priced' ? { kind: 'priced', usd: r.micros / 1e6 } : { kind: r.kind, usd: 0 };
}
