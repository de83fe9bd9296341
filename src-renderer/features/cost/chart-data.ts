import type { CostSum, DayCost } from '@shared/domain/cost-report';
import { allTokens } from './format';

export type ChartMetric = 'cost' | 'tokens';

/**
 * What the per-day chart draws, as plain arrays (uPlot's data): the days on x, and one series per
 * model. `values` are each model's own figures (the tooltip shows them); `stacked` are the running
 * sums the bars are drawn to, so each model's bar sits on the ones before it.
 */
export interface DayChartData {
  days: string[];
  /** Models, the most used over the range first (drawn at the bottom of each stack). */
  models: string[];
  values: number[][];
  stacked: number[][];
  /** Per day and model, the sum behind the bar (for the tooltip's exact figures). */
  sums: (CostSum | null)[][];
  /** Per model, its colour (an index into MODEL_COLOURS): the same for a model whatever the range or metric. */
  colours: number[];
}

export function metricOf(sum: CostSum, metric: ChartMetric): number {
  return metric === 'cost' ? sum.costMicros / 1_000_000 : allTokens(sum.tokens);
}

export function dayChartData(days: readonly DayCost[], metric: ChartMetric): DayChartData {
  const totals = new Map<string, { metric: number; tokens: number }>();
  for (const day of days)
    for (const [model, sum] of Object.entries(day.byModel)) {
      const t = totals.get(model) ?? { metric: 0, tokens: 0 };
      totals.set(model, {
        metric: t.metric + metricOf(sum, metric),
        tokens: t.tokens + allTokens(sum.tokens),
      });
    }
  // Unpriced models cost 0 on the cost chart: their tokens still order them among themselves.
  const rank = (m: string) => totals.get(m) ?? { metric: 0, tokens: 0 };
  const models = [...totals.keys()].sort(
    (a, b) => rank(b).metric - rank(a).metric || rank(b).tokens - rank(a).tokens || a.localeCompare(b),
  );
  const sums = models.map((m) => days.map((d) => d.byModel[m] ?? null));
  const values = sums.map((row) => row.map((s) => (s ? metricOf(s, metric) : 0)));
  const stacked: number[][] = [];
  values.forEach((row, i) => {
    const below = stacked[i - 1];
    stacked.push(row.map((v, j) => v + (below ? (below[j] ?? 0) : 0)));
  });
  return { days: days.map((d) => d.day), models, values, stacked, sums, colours: modelColours(models) };
}

/** The families keep one colour each; any other model gets one of the rest from its name. */
const FAMILY_COLOURS: [RegExp, number][] = [
  [/sonnet/, 0],
  [/haiku/, 1],
  [/opus/, 2],
];

function preferredColour(model: string): number {
  const family = FAMILY_COLOURS.find(([re]) => re.test(model));
  if (family) return family[1];
  let h = 0;
  for (const ch of model) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  const rest = MODEL_COLOURS.length - FAMILY_COLOURS.length;
  return FAMILY_COLOURS.length + (h % rest);
}

/**
 * Each model's colour: its own (by family, else by name), so it does not change when the range or the
 * metric reorders the models; when two in one chart would share one, the later takes the next free.
 */
export function modelColours(models: readonly string[]): number[] {
  const taken = new Set<number>();
  return models.map((m) => {
    let c = preferredColour(m);
    for (let k = 0; k < MODEL_COLOURS.length && taken.has(c); k++) c = (c + 1) % MODEL_COLOURS.length;
    taken.add(c);
    return c;
  });
}

/** Colours for models, distinct in both themes. */
export const MODEL_COLOURS = [
  '#2f6feb',
  '#e07b00',
  '#2e9d5a',
  '#b84fc8',
  '#d64545',
  '#1a9bb0',
  '#8a7a2a',
  '#6b6b70',
];
export const colourOf = (i: number): string => MODEL_COLOURS[i % MODEL_COLOURS.length] as string;
