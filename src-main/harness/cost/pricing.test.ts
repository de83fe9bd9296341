import { describe, expect, it } from 'vitest';
import priceTable from '../../../resources/prices.json';
import type { TokenCounts } from '@shared/domain/cost-report';
import { CLAUDE_MODELS } from '../model/catalog';
import { costOf, parsePriceTable, PRICE_TABLE, priceFor, priceResponse, tokenCountsOf } from './pricing';

const none: TokenCounts = {
  input: 0,
  output: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 0,
  webSearches: 0,
};
const t = (o: Partial<TokenCounts>): TokenCounts => ({ ...none, ...o });
const micros = (model: string, o: Partial<TokenCounts>) => {
  const r = priceResponse(model, t(o));
  if (r.kind !== 'priced') throw new Error(`${model} is ${r.kind}`);
  return r.micros;
};

describe('the price table in resources/prices.json', () => {
  it('has a version and a date, and every model has every price', () => {
    expect(PRICE_TABLE.version).toBe(priceTable.version);
    expect(PRICE_TABLE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const m of priceTable.models)
      for (const k of ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const)
        expect(typeof m[k], `${m.name}.${k}`).toBe('number');
  });

  it('fails loudly on a malformed edit, naming the field', () => {
    const bad = structuredClone(priceTable) as unknown as { models: Record<string, unknown>[] };
    delete bad.models[0]!['cacheRead'];
    expect(() => parsePriceTable(bad)).toThrow(/cacheRead/);
    const dup = structuredClone(priceTable);
    dup.models[1]!.ids = ['claude-opus-4-5'];
    expect(() => parsePriceTable(dup)).toThrow(/claude-opus-4-5 is listed twice/);
    expect(() => parsePriceTable({ ...priceTable, webSearchPerRequest: -1 })).toThrow(/webSearchPerRequest/);
  });

  it('prices every model the app offers', () => {
    for (const m of CLAUDE_MODELS) expect(priceFor(m.id), m.id).not.toBeNull();
  });

  it('matches dated ids, cloud ids and aliases by the longest prefix', () => {
    expect(priceFor('claude-opus-4-1-20250805')).toEqual({ input: 15, output: 75 });
    expect(priceFor('claude-opus-4-20250514')).toEqual({ input: 15, output: 75 });
    expect(priceFor('claude-opus-4-5-20251101')).toEqual({ input: 5, output: 25 });
    expect(priceFor('claude-sonnet-4-5@20250929')).toEqual({ input: 3, output: 15 });
    expect(priceFor('claude-sonnet-5')).toEqual({ input: 2, output: 10 });
    expect(priceFor('claude-haiku-4-5-20251001')).toEqual({ input: 1, output: 5 });
    expect(priceFor('claude-3-5-haiku-20241022')).toEqual({ input: 0.8, output: 4 });
    expect(priceFor('claude-3-haiku-20240307')).toEqual({ input: 0.25, output: 1.25 });
    // An id the table does not list is not guessed from a shorter family name.
    expect(priceFor('claude-sonnet-4-9')).toBeNull();
  });

  it('prices Bedrock and Vertex ids as their base model', () => {
    const sonnet45 = priceFor('claude-sonnet-4-5');
    expect(sonnet45).not.toBeNull();
    for (const id of [
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-sonnet-4-5@20250929',
    ])
      expect(priceFor(id), id).toEqual(sonnet45);
    expect(priceFor('eu.anthropic.claude-opus-4-1-20250805-v1:0')).toEqual({ input: 15, output: 75 });
    expect(priceResponse('us.anthropic.claude-haiku-4-5-20251001-v1:0', t({ input: 1000 }))).toMatchObject({
      kind: 'priced',
      micros: 1000,
    });
    // Not an Anthropic model on Bedrock: still unpriced, never $0.
    expect(priceResponse('us.meta.llama3-70b-instruct-v1:0', t({ input: 1000 }))).toEqual({
      kind: 'unpriced',
    });
  });
});

describe('priceResponse: the table applied by hand', () => {
  it('prices each kind of token at its own rate (µ$ per token = $ per MTok)', () => {
    // Sonnet 4.5: input 3, output 15, 5 min write 3.75, 1 h write 6, read 0.30.
    expect(micros('claude-sonnet-4-5', { input: 1000 })).toBe(3000);
    expect(micros('claude-sonnet-4-5', { output: 1000 })).toBe(15_000);
    expect(micros('claude-sonnet-4-5', { cacheWrite5m: 1000 })).toBe(3750);
    expect(micros('claude-sonnet-4-5', { cacheWrite1h: 1000 })).toBe(6000);
    expect(micros('claude-sonnet-4-5', { cacheRead: 1000 })).toBe(300);
    // Opus 4.1: 15 / 75, writes 18.75 / 30, read 1.50.
    expect(
      micros('claude-opus-4-1', { input: 10, output: 10, cacheWrite5m: 10, cacheWrite1h: 10, cacheRead: 10 }),
    ).toBe(Math.round(150 + 750 + 187.5 + 300 + 15));
    // Haiku 3's published write price is $0.30, not 1.25 × $0.25: the table is taken as published.
    expect(micros('claude-3-haiku', { cacheWrite5m: 1_000_000 })).toBe(300_000);
  });

  it('prices web searches at $10 per 1,000, on top of tokens', () => {
    expect(micros('claude-haiku-4-5', { webSearches: 1 })).toBe(10_000);
    expect(micros('claude-haiku-4-5', { input: 100, webSearches: 3 })).toBe(100 + 30_000);
  });

  it('rounds once per response, not per kind', () => {
    // Haiku 3: 10 reads at 0.03 µ$ = 0.3, 1 input at 0.25 = 0.25. Each rounded alone: 0 + 0 = 0.
    expect(micros('claude-3-haiku', { cacheRead: 10, input: 1 })).toBe(1);
    expect(micros('claude-3-haiku', { cacheRead: 10 })).toBe(0);
  });

  it('bills ALL tokens of a Sonnet 4 / 4.5 request over 200,000 input tokens at the long-context tier', () => {
    // Exactly 200,000 input-side tokens: standard rates.
    const at = {
      input: 100_000,
      cacheWrite5m: 50_000,
      cacheWrite1h: 25_000,
      cacheRead: 25_000,
      output: 1000,
    };
    expect(micros('claude-sonnet-4-5-20250929', at)).toBe(
      100_000 * 3 + 50_000 * 3.75 + 25_000 * 6 + 25_000 * 0.3 + 1000 * 15,
    );
    // One more cached token read: everything at $6 / $22.50 with the multipliers on top.
    const over = { ...at, cacheRead: 25_001 };
    expect(micros('claude-sonnet-4-20250514', over)).toBe(
      Math.round(100_000 * 6 + 50_000 * 7.5 + 25_000 * 12 + 25_001 * 0.6 + 1000 * 22.5),
    );
    // Claude 4.6+ has no tier.
    expect(micros('claude-sonnet-4-6', over)).toBe(
      Math.round(100_000 * 3 + 50_000 * 3.75 + 25_000 * 6 + 25_001 * 0.3 + 1000 * 15),
    );
    expect(micros('claude-opus-4-5', { input: 300_000 })).toBe(1_500_000);
  });

  it('never prices an unknown model at $0, and says when it is the demo model', () => {
    expect(priceResponse('gpt-9', t({ input: 10 }))).toEqual({ kind: 'unpriced' });
    expect(priceResponse('claude-sonnet-4-9', t({ input: 10 }))).toEqual({ kind: 'unpriced' });
    expect(priceResponse('demo', t({ input: 10 }))).toEqual({ kind: 'demo' });
    expect(priceResponse('claude-haiku-4-5', t({ input: 10 }))).toEqual({
      kind: 'priced',
      micros: 10,
      version: PRICE_TABLE.version,
    });
  });
});

describe('tokenCountsOf', () => {
  const usage = { inputTokens: 5, outputTokens: 6, cacheCreationInputTokens: 100, cacheReadInputTokens: 7 };
  it('splits cache writes into 1 h and 5 min; without a 1 h figure all writes are 5 min', () => {
    expect(tokenCountsOf(usage, 30, 2)).toEqual({
      input: 5,
      output: 6,
      cacheWrite5m: 70,
      cacheWrite1h: 30,
      cacheRead: 7,
      webSearches: 2,
    });
    expect(tokenCountsOf(usage, 0, 0)).toMatchObject({ cacheWrite5m: 100, cacheWrite1h: 0 });
    // A 1 h figure larger than all writes cannot make the 5 min ones negative.
    expect(tokenCountsOf(usage, 500, 0)).toMatchObject({ cacheWrite5m: 0, cacheWrite1h: 100 });
  });

  it('costOf (dollars) agrees with priceResponse', () => {
    expect(costOf('claude-sonnet-4-5', usage, 30)).toEqual({
      kind: 'priced',
      usd: Math.round(5 * 3 + 6 * 15 + 70 * 3.75 + 30 * 6 + 7 * 0.3) / 1e6,
    });
  });
});
