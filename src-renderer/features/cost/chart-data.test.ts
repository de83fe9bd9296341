import { describe, expect, it } from 'vitest';
import { dayChartData } from './chart-data';
import { sum } from './test-report';

describe('per-day chart data', () => {
  const days = [
    {
      day: '2026-12-01',
      byModel: { opus: sum(3_000_000, { input: 10 }), haiku: sum(500_000, { output: 5 }) },
      total: sum(3_500_000),
    },
    { day: '2026-12-02', byModel: {}, total: sum(0, {}, 0, 0) },
    {
      day: '2026-12-03',
      byModel: { haiku: sum(1_000_000, { input: 7 }), odd: sum(0, { input: 100 }, 1) },
      total: sum(1_000_000),
    },
  ];

  it('stacks each model on the ones before it, the most expensive at the bottom', () => {
    const d = dayChartData(days, 'cost');
    expect(d.models).toEqual(['opus', 'haiku', 'odd']);
    expect(d.values).toEqual([
      [3, 0, 0],
      [0.5, 0, 1],
      [0, 0, 0],
    ]);
    expect(d.stacked).toEqual([
      [3, 0, 0],
      [3.5, 0, 1],
      [3.5, 0, 1],
    ]);
    // Empty days keep their place on the x axis.
    expect(d.days).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
  });

  it('draws tokens of every kind when asked for tokens (an unpriced model counts there)', () => {
    const d = dayChartData(days, 'tokens');
    expect(d.models[0]).toBe('odd');
    expect(d.values[0]).toEqual([0, 0, 100]);
  });
});
