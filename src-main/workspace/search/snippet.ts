/**
 * The piece of a document shown under a search result: a window of text around the first match,
 * with the ranges (in the snippet's own characters) where the query's words occur, so the window
 * can mark them without interpreting any of the text as markup.
 */

export interface Snippet {
  text: string;
  /** [start, end) offsets into `text`, ascending, not overlapping. */
  highlights: [number, number][];
}

const BEFORE = 60;
const LENGTH = 220;

/** Words of a query as MiniSearch splits them, lower-cased. */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[\n\r\p{Z}\p{P}]+/u)
    .filter((w) => w !== '');
}

export function snippetOf(text: string, query: string, terms: readonly string[]): Snippet {
  const flat = text.replace(/\s+/g, ' ');
  const lower = flat.toLowerCase();
  const phrase = query.trim().toLowerCase().replace(/\s+/g, ' ');
  // Matched terms (a prefix search matches longer words: mark those too) and the typed words.
  const words = [...new Set([...terms.map((t) => t.toLowerCase()), ...queryWords(query)])].filter(
    (w) => w.length > 0,
  );
  let first = phrase.length > 0 ? lower.indexOf(phrase) : -1;
  if (first < 0)
    for (const w of words) {
      const i = lower.indexOf(w);
      if (i >= 0 && (first < 0 || i < first)) first = i;
    }
  let start = Math.max(0, (first < 0 ? 0 : first) - BEFORE);
  // Start at a word's beginning when one is near.
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < start + 15) start = space + 1;
  }
  const end = Math.min(flat.length, start + LENGTH);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < flat.length ? '…' : '';
  const body = flat.slice(start, end);
  const bodyLower = lower.slice(start, end);
  const ranges: [number, number][] = [];
  for (const w of phrase.includes(' ') ? [phrase, ...words] : words) {
    let i = bodyLower.indexOf(w);
    while (i >= 0) {
      ranges.push([i + prefix.length, i + prefix.length + w.length]);
      i = bodyLower.indexOf(w, i + w.length);
    }
  }
  return { text: `${prefix}${body}${suffix}`, highlights: merge(ranges) };
}

function merge(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
