import { describe, expect, it } from 'vitest';
import { CostTracker } from './tracker';
import { costOf, priceFor } from './pricing';

const usage = (input: number, output: number, cacheWrite = 0, cacheRead = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheCreationInputTokens: cacheWrite,
  cacheReadInputTokens: cacheRead,
});

describe('pricing', () => {
  it('prices input, output, 5m and 1h cache writes and cache reads from the table', () => {
    // Sonnet: $3 in, $15 out; 5m write ×1.25, 1h write ×2, read ×0.1.
    // (Under 200,000 input-side tokens: the long-context tier does not apply.)
    const c = costOf('claude-sonnet-4-5-20250929', usage(100_000, 100_000, 40_000, 60_000), 10_000);
    expect(c.kind).toBe('priced');
    expect(c.usd).toBeCloseTo(0.3 + 1.5 + 30_000 * 3e-6 * 1.25 + 10_000 * 3e-6 * 2 + 60_000 * 3e-6 * 0.1, 9);
    expect(priceFor('claude-opus-4-5')).toEqual({ input: 5, output: 25 });
    expect(priceFor('claude-haiku-4-5-20251001')).toEqual({ input: 1, output: 5 });
  });

  it('flags unknown models instead of pricing them at zero', () => {
    expect(costOf('gpt-9', usage(10, 10)).kind).toBe('unpriced');
    expect(costOf('demo', usage(10, 10))).toEqual({ kind: 'demo', usd: 0 });
  });
});

describe('CostTracker', () => {
  it('sums per model in micro-dollars and counts each message id once', () => {
    const t = new CostTracker('s1');
    expect(t.add({ model: 'claude-haiku-4-5', apiId: 'msg_1', usage: usage(1000, 100) })).toBe(true);
    expect(t.add({ model: 'claude-haiku-4-5', apiId: 'msg_1', usage: usage(1000, 100) })).toBe(false);
    t.add({ model: 'claude-opus-4-5', apiId: 'msg_2', usage: usage(10, 10), webSearchRequests: 2 });
    expect(t.snapshot().totalCostMicros).toBe(1000 + 500 + (50 + 250) + 20_000);
    expect(t.modelUsage()['claude-haiku-4-5']).toMatchObject({
      inputTokens: 1000,
      outputTokens: 100,
      costMicros: 1500,
      priced: true,
    });
    t.add({ model: 'mystery-model', apiId: 'msg_3', usage: usage(5, 5) });
    expect(t.unpricedModels).toEqual(['mystery-model']);
  });

  it('prices 1 h cache writes apart from 5 min ones and keeps the split per model', () => {
    const t = new CostTracker('s1');
    // Sonnet 4.5: 5 min write $3.75, 1 h write $6 per MTok; 1,000 writes of which 400 for 1 h.
    t.add({ model: 'claude-sonnet-4-5', apiId: 'a', usage: usage(0, 0, 1000), cacheWrite1hTokens: 400 });
    t.add({ model: 'claude-sonnet-4-5', apiId: 'b', usage: usage(0, 0, 100) });
    expect(t.snapshot().totalCostMicros).toBe(600 * 3.75 + 400 * 6 + 100 * 3.75);
    expect(t.modelUsage()['claude-sonnet-4-5']).toMatchObject({
      cacheCreationInputTokens: 1100,
      cacheCreation1hInputTokens: 400,
    });
  });

  it('restores a snapshot only for the same session', () => {
    const a = new CostTracker('s1');
    a.add({ model: 'claude-haiku-4-5', apiId: 'm', usage: usage(1_000_000, 0) });
    const snap = a.snapshot();
    const other = new CostTracker('s2');
    expect(other.restore(snap)).toBe(false);
    expect(other.totalCostUsd).toBe(0);
    const same = new CostTracker('s1');
    expect(same.restore(snap)).toBe(true);
    expect(same.totalCostUsd).toBe(1);
  });
});
