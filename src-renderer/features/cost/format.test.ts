import { describe, expect, it } from 'vitest';
import {
  estimateLabel,
  exactSumCost,
  formatAxisMoney,
  formatDuration,
  formatSumCost,
  formatTokensShort,
  MONEY_AXIS_MIN_TOP,
  MONEY_AXIS_STEPS,
} from './format';

describe('cost figures', () => {
  it('writes a sum as money.ts does, and to the micro-dollar for the hover', () => {
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
