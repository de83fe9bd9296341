import { describe, expect, it } from 'vitest';
import {
  estimateLabel,
  exactMicros,
  exactSumCost,
  formatAxisMoney,
  formatDuration,
  formatMicros,
  formatSumCost,
  formatTokensShort,
  MONEY_AXIS_MIN_TOP,
  MONEY_AXIS_STEPS,
} from './format';

describe('cost figures', () => {
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

  it('keeps the exact figure, to the micro-dollar, for the hover', () => {
    expect(exactMicros(1_230)).toBe('$0.00123');
    expect(exactMicros(12_345_678)).toBe('$12.345678');
    expect(exactMicros(500_000)).toBe('$0.50');
    expect(exactMicros(0)).toBe('$0.00');
    expect(exactMicros(1_234_000_001)).toBe('$1,234.000001');
    expect(exactSumCost({ costMicros: 1_230, records: 2, unpricedRecords: 1 })).toBe('$0.00123 + unpriced');
    expect(formatSumCost({ costMicros: 1_230, records: 2, unpricedRecords: 1 })).toBe('<$0.01 + unpriced');
  });

  it('labels a money axis in whole cents or dollars, never "$0.0000"', () => {
    expect(MONEY_AXIS_STEPS.every((s) => s >= 0.01)).toBe(true);
    expect(MONEY_AXIS_STEPS.slice(0, 6)).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5]);
    expect([0, 0.05, 0.1, 0.15].map((v) => formatAxisMoney(v, 0.05))).toEqual([
      '$0',
      '$0.05',
      '$0.10',
      '$0.15',
    ]);
    expect([0, 0.5, 1].map((v) => formatAxisMoney(v, 0.5))).toEqual(['$0', '$0.50', '$1.00']);
    expect([0, 5, 10, 1_000].map((v) => formatAxisMoney(v, 5))).toEqual(['$0', '$5', '$10', '$1,000']);
    expect(MONEY_AXIS_MIN_TOP).toBeGreaterThanOrEqual(0.05);
  });

  it('never shows an unpriced sum as $0', () => {
    expect(formatSumCost({ costMicros: 0, records: 3, unpricedRecords: 3 })).toBe('unpriced');
    expect(formatSumCost({ costMicros: 2_500_000, records: 4, unpricedRecords: 1 })).toBe('$2.50 + unpriced');
    expect(formatSumCost({ costMicros: 2_500_000, records: 4, unpricedRecords: 0 })).toBe('$2.50');
  });

  it('labels figures as estimates with the price table they came from', () => {
    expect(estimateLabel({ version: 'v7', date: '2026-11-01' })).toBe(
      'Estimated from list prices, table v7 (2026-11-01)',
    );
  });

  it('shortens durations and axis token counts', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(12 * 60_000)).toBe('12 min');
    expect(formatDuration(185 * 60_000)).toBe('3 h 5 min');
    expect(formatTokensShort(950)).toBe('950');
    expect(formatTokensShort(1_200)).toBe('1.2k');
    expect(formatTokensShort(3_400_000)).toBe('3.4M');
  });
});
