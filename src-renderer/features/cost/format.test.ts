import { describe, expect, it } from 'vitest';
import { estimateLabel, formatDuration, formatMicros, formatSumCost, formatTokensShort } from './format';

describe('cost figures', () => {
  it('writes micro-dollars as Claude Code does: two decimals above $0.50, four below', () => {
    expect(formatMicros(12_345_678)).toBe('$12.35');
    expect(formatMicros(1_230)).toBe('$0.0012');
    expect(formatMicros(0)).toBe('$0.0000');
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
