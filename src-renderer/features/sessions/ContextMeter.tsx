import type { ContextMeter as Meter } from '@shared/domain/session';
import './context-meter.css';

/** Past this share of the autocompact line the meter turns amber: compaction is near. */
export const NEAR_SHARE = 0.8;

/** A token count in the status bar's short form: 950, 42k, 1.2M. */
export function shortTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  const m = n / 1_000_000;
  return `${Number.isInteger(m) ? m : m.toFixed(1)}M`;
}

/** What the meter's tooltip says: the exact figures and how far autocompact is. */
export function meterTitle(meter: Meter): string {
  const exact = `${meter.tokens.toLocaleString('en-US')} of ${meter.window.toLocaleString('en-US')} tokens in context`;
  if (meter.autocompactAt === null) return `${exact}; automatic compaction is off for this session.`;
  const left = meter.autocompactAt - meter.tokens;
  const where = `autocompact at ${shortTokens(meter.autocompactAt)}`;
  return left > 0
    ? `${exact}; ${where} (${left.toLocaleString('en-US')} tokens to go).`
    : `${exact}; ${where} (reached: the next request compacts first).`;
}

/** Whether the context is past 80 % of where autocompact starts (of the window when it is off). */
export function meterNear(meter: Meter): boolean {
  return meter.tokens >= NEAR_SHARE * (meter.autocompactAt ?? meter.window);
}

/** The status bar's context meter: "42k / 200k" with a thin bar; amber when autocompact is near. */
export function ContextMeter({ meter }: { meter: Meter }) {
  const near = meterNear(meter);
  const filled = Math.min(100, (meter.tokens / meter.window) * 100);
  const line =
    meter.autocompactAt === null ? null : Math.min(100, (meter.autocompactAt / meter.window) * 100);
  return (
    <span
      className={`context-meter${near ? ' context-meter-near' : ''}`}
      data-testid="context-meter"
      role="meter"
      aria-label="Context used"
      aria-valuemin={0}
      aria-valuemax={meter.window}
      aria-valuenow={Math.min(meter.tokens, meter.window)}
      aria-valuetext={`${shortTokens(meter.tokens)} of ${shortTokens(meter.window)} tokens`}
      title={meterTitle(meter)}
    >
      <span className="context-meter-bar" aria-hidden="true">
        <span className="context-meter-fill" style={{ width: `${filled}%` }} />
        {line === null ? null : <span className="context-meter-line" style={{ left: `${line}%` }} />}
      </span>
      <span className="context-meter-figures">
        {shortTokens(meter.tokens)} / {shortTokens(meter.window)}
      </span>
    </span>
  );
}
