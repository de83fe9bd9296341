import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { DayCost } from '@shared/domain/cost-report';
import { colourOf, dayChartData, type ChartMetric } from './chart-data';
import {
  cacheWrites,
  exactSumCost,
  formatAxisMoney,
  formatTokens,
  formatTokensShort,
  MONEY_AXIS_MIN_TOP,
  MONEY_AXIS_STEPS,
  shortModel,
} from './format';

const HEIGHT = 200;

/** The theme's colours for the canvas (CSS variables do not reach inside it). */
function themeColours() {
  const css = getComputedStyle(document.documentElement);
  const get = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { text: get('--muted', '#6b6b70'), grid: get('--border', '#d9d9d4') };
}

/** Re-renders when the theme changes (the root's data-theme), so the axes are redrawn in its colours. */
function useThemeKey(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset['theme'] ?? '');
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(document.documentElement.dataset['theme'] ?? ''));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * Spend or tokens per day, bars stacked by model (uPlot on a canvas). Hovering a day shows its exact
 * figures per model in a tooltip beside the bar.
 */
export default function DayChart({ days, metric }: { days: DayCost[]; metric: ChartMetric }) {
  const host = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<{ idx: number; left: number } | null>(null);
  const data = useMemo(() => dayChartData(days, metric), [days, metric]);
  const theme = useThemeKey();

  useEffect(() => {
    const el = host.current;
    // No canvas (a test's DOM): the legend and the tables still say everything.
    if (!el || !document.createElement('canvas').getContext('2d')) return;
    const colours = themeColours();
    const n = data.days.length;
    const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 0 });
    // Drawn tallest stack first, so each lower model's bar is painted over the ones above it.
    const order = data.models.map((_, i) => i).reverse();
    const axis = { stroke: colours.text, grid: { stroke: colours.grid, width: 1 }, ticks: { show: false } };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: () => [-0.5, n - 0.5] },
        // Spend gets at least $0.05 of height, so its steps are whole cents even on a day of fractions of one.
        y: {
          range: (_u, _min, max) =>
            metric === 'cost' ? [0, Math.max(max * 1.08, MONEY_AXIS_MIN_TOP)] : [0, max > 0 ? max * 1.08 : 1],
        },
      },
      axes: [
        {
          ...axis,
          grid: { show: false },
          splits: () => data.days.map((_, i) => i),
          values: (_u, splits) => {
            // Fewer labels as the days get many: about one per 60 px.
            const every = Math.max(1, Math.ceil(n / Math.max(1, el.clientWidth / 60)));
            return splits.map((i) => (i % every === 0 ? (data.days[i]?.slice(5) ?? '') : ''));
          },
        },
        {
          ...axis,
          size: 60,
          ...(metric === 'cost' ? { incrs: MONEY_AXIS_STEPS } : {}),
          values: (_u, splits, _axis, _space, step) => {
            const labels = splits.map((v) =>
              metric === 'cost' ? formatAxisMoney(v, step) : formatTokensShort(v),
            );
            // The canvas's text cannot be read back: the labels drawn are kept beside it.
            el.dataset['yLabels'] = JSON.stringify(labels);
            return labels;
          },
        },
      ],
      series: [
        {},
        ...order.map((i): uPlot.Series => ({
          label: data.models[i] ?? '',
          fill: colourOf(data.colours[i] ?? i),
          stroke: colourOf(data.colours[i] ?? i),
          width: 0,
          ...(bars ? { paths: bars } : {}),
          points: { show: false },
        })),
      ],
      hooks: {
        setCursor: [
          (u) => {
            const idx = u.cursor.idx;
            setHover(idx === null || idx === undefined ? null : { idx, left: u.cursor.left ?? 0 });
          },
        ],
      },
    };
    const plot = new uPlot(
      opts,
      [data.days.map((_, i) => i), ...order.map((i) => data.stacked[i] ?? [])],
      el,
    );
    el.dataset['series'] = JSON.stringify({ days: data.days, models: data.models, values: data.values });
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      setHover(null);
    };
  }, [data, metric, theme]);

  // Placed with el.style from script: the page's CSP allows no inline style attributes.
  useLayoutEffect(() => {
    const t = tip.current;
    const el = host.current;
    if (!t || !el || !hover) return;
    const left = Math.min(hover.left + 70, el.clientWidth - t.offsetWidth - 4);
    t.style.left = `${Math.max(0, left)}px`;
  }, [hover]);

  const day = hover ? data.days[hover.idx] : undefined;
  const shown = hover
    ? data.models.map((m, i) => ({ m, i, sum: data.sums[i]?.[hover.idx] ?? null })).filter((r) => r.sum)
    : [];
  const dayTotal = hover ? days[hover.idx]?.total : undefined;
  return (
    <div className="cost-chart">
      <div ref={host} className="cost-chart-canvas" data-testid="cost-day-chart" data-metric={metric} />
      {day && dayTotal ? (
        <div ref={tip} className="cost-tooltip" role="status" data-testid="cost-chart-tooltip">
          <div className="cost-tooltip-head">
            {day}: {exactSumCost(dayTotal)},{' '}
            {formatTokens(
              dayTotal.tokens.input +
                dayTotal.tokens.output +
                cacheWrites(dayTotal.tokens) +
                dayTotal.tokens.cacheRead,
            )}{' '}
            tokens
          </div>
          {shown.length === 0 ? <div className="muted">No usage.</div> : null}
          {shown.map(({ m, i, sum }) =>
            sum ? (
              <div key={m} className="cost-tooltip-model">
                <span className="cost-swatch" data-colour={data.colours[i]} aria-hidden="true" />
                <strong>{shortModel(m)}</strong> {exactSumCost(sum)}
                <div className="cost-tooltip-tokens">
                  in {formatTokens(sum.tokens.input)} · out {formatTokens(sum.tokens.output)} · cache write{' '}
                  {formatTokens(cacheWrites(sum.tokens))} · cache read {formatTokens(sum.tokens.cacheRead)}
                  {sum.tokens.webSearches > 0 ? ` · ${sum.tokens.webSearches} web searches` : ''}
                </div>
              </div>
            ) : null,
          )}
        </div>
      ) : null}
      <ul className="cost-legend" aria-label="Models">
        {data.models.map((m, i) => (
          <li key={m}>
            <span className="cost-swatch" data-colour={data.colours[i]} aria-hidden="true" />
            {shortModel(m)}
          </li>
        ))}
      </ul>
    </div>
  );
}
