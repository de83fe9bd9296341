/**
 * How full MEMORY.md is against the limits the session start applies (harness-facts §1c): past 200
 * lines or 25,000 bytes the index is cut and the model sees a truncation warning. The gauge warns
 * from 80% of either, so the person trims it before anything is lost.
 */
export const INDEX_MAX_LINES = 200;
export const INDEX_MAX_BYTES = 25_000;
const WARN_AT = 0.8;

export type GaugeLevel = 'ok' | 'warn' | 'over';

export interface IndexGauge {
  lines: number;
  bytes: number;
  level: GaugeLevel;
  /** In plain words, for the person; null while comfortably inside. */
  message: string | null;
}

/** Lines as the loader counts them: a final newline does not start another line. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

export function indexGauge(text: string): IndexGauge {
  const lines = countLines(text);
  const bytes = new TextEncoder().encode(text).length;
  const over = lines > INDEX_MAX_LINES || bytes > INDEX_MAX_BYTES;
  const warn = lines >= INDEX_MAX_LINES * WARN_AT || bytes >= INDEX_MAX_BYTES * WARN_AT;
  const level: GaugeLevel = over ? 'over' : warn ? 'warn' : 'ok';
  const what =
    lines > INDEX_MAX_LINES
      ? `${lines - INDEX_MAX_LINES} line(s) past the ${INDEX_MAX_LINES}-line limit`
      : `${((bytes - INDEX_MAX_BYTES) / 1000).toFixed(1)} KB past the 25 KB limit`;
  const message =
    level === 'over'
      ? `MEMORY.md is cut when a session starts: ${what} will not be seen. Shorten the index.`
      : level === 'warn'
        ? 'MEMORY.md is close to its limit (200 lines, 25 KB); past it, the end is cut at session start.'
        : null;
  return { lines, bytes, level, message };
}
