import { indexGauge, INDEX_MAX_BYTES, INDEX_MAX_LINES } from './index-gauge';

/** Lines of 200 and KB of 25 for MEMORY.md, amber before the cut, red past it. */
export function IndexGaugeView({ text }: { text: string }) {
  const g = indexGauge(text);
  const kb = (g.bytes / 1000).toFixed(1);
  return (
    <div className={`memory-gauge memory-gauge-${g.level}`} aria-label="Index size">
      <label>
        Lines {g.lines} of {INDEX_MAX_LINES}
        <meter
          min={0}
          max={INDEX_MAX_LINES}
          high={INDEX_MAX_LINES * 0.8}
          optimum={0}
          value={Math.min(g.lines, INDEX_MAX_LINES)}
        />
      </label>
      <label>
        {kb} KB of {INDEX_MAX_BYTES / 1000}
        <meter
          min={0}
          max={INDEX_MAX_BYTES}
          high={INDEX_MAX_BYTES * 0.8}
          optimum={0}
          value={Math.min(g.bytes, INDEX_MAX_BYTES)}
        />
      </label>
      {g.message ? (
        <span role={g.level === 'over' ? 'alert' : 'status'} className="memory-gauge-message">
          {g.message}
        </span>
      ) : null}
    </div>
  );
}
