import { describe, expect, it } from 'vitest';
import { exactMicros, exactUsd, formatMicros, formatUsd } from './money';

describe('money', () => {
  it('writes every figure with two decimals from a cent up, and less than a cent as "<$0.01"', () => {
    expect(formatMicros(12_345_678)).toBe('$12.35');
    expect(formatMicros(500_000)).toBe('$0.50');
    expect(formatMicros(10_000)).toBe('$0.01');
    expect(formatMicros(9_999)).toBe('<$0.01');
    expect(formatMicros(1_230)).toBe('<$0.01');
    expect(formatMicros(1)).toBe('<$0.01');
    expect(formatMicros(0)).toBe('$0.00');
    expect(formatMicros(1_234_567_890)).toBe('$1,234.57');
    // One column, one rule: never some figures with four decimals beside others with two.
    const column = [12_345_678, 500_000, 1_230, 0, 75_000_000].map(formatMicros);
    for (const f of column) expect(f).toMatch(/^(<\$0\.01|\$[\d,]+\.\d{2})$/);
  });

  it('writes dollars by the same rule (a session summary, a budget amount)', () => {
    expect(formatUsd(0.5)).toBe('$0.50');
    expect(formatUsd(0.51)).toBe('$0.51');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(0.00123)).toBe('<$0.01');
    expect(formatUsd(0.009_999_9)).toBe('$0.01');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1_000)).toBe('$1,000.00');
    // Dollars and micro-dollars of one amount read the same.
    for (const micros of [0, 1, 9_999, 10_000, 123_456, 98_765_432])
      expect(formatUsd(micros / 1e6)).toBe(formatMicros(micros));
  });

  it('keeps the exact figure, to the micro-dollar, for the hover', () => {
    expect(exactMicros(1_230)).toBe('$0.00123');
    expect(exactMicros(12_345_678)).toBe('$12.345678');
    expect(exactMicros(500_000)).toBe('$0.50');
    expect(exactMicros(0)).toBe('$0.00');
    expect(exactMicros(1_234_000_001)).toBe('$1,234.000001');
    expect(exactUsd(0.00123)).toBe('$0.00123');
  });

  it('says what a malformed amount is instead of "$NaN", and keeps the sign of a negative one', () => {
    expect(formatUsd(Number.NaN)).toBe('$—');
    expect(formatMicros(Number.POSITIVE_INFINITY)).toBe('$—');
    expect(exactMicros(Number.NaN)).toBe('$—');
    expect(formatMicros(-1_500_000)).toBe('-$1.50');
    expect(formatMicros(-1)).toBe('-<$0.01');
    expect(exactMicros(-1_230)).toBe('-$0.00123');
  });
});
