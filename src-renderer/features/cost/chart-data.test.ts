import { describe, expect, it } from 'vitest';
import { dayChartData, MODEL_COLOURS, modelColours } from './chart-data';
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

  it("keeps a model's colour when the range or the metric reorders the models", () => {
    const byCost = dayChartData(days, 'cost');
    const byTokens = dayChartData(days, 'tokens');
    const colour = (d: typeof byCost, m: string) => d.colours[d.models.indexOf(m)];
    // 'odd' is last by cost and first by tokens; each model keeps its colour all the same.
    expect(byTokens.models).not.toEqual(byCost.models);
    for (const m of ['opus', 'haiku', 'odd']) expect(colour(byTokens, m)).toBe(colour(byCost, m));
    // Today only: one model fewer, the others as before.
    const today = dayChartData(days.slice(2), 'cost');
    expect(today.models).toEqual(['haiku', 'odd']);
    for (const m of today.models) expect(colour(today, m)).toBe(colour(byCost, m));
    // The families have theirs, whatever their place.
    expect(modelColours(['claude-haiku-4-5', 'claude-sonnet-4-5'])).toEqual([1, 0]);
  });

  it('never gives two models of one chart the same colour while there are colours left', () => {
    const models = ['claude-sonnet-4-5', 'claude-sonnet-4', 'a', 'b', 'c', 'd', 'e', 'f'];
    const colours = modelColours(models);
    expect(new Set(colours).size).toBe(MODEL_COLOURS.length);
    expect(colours.every((c) => c >= 0 && c < MODEL_COLOURS.length)).toBe(true);
  });
});
