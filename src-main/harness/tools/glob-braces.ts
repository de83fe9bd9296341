import { bracketEnd } from './glob-segment';

/**
 * Brace sets expanded before a glob is compiled: `{secrets/**,.env}` is the two patterns `secrets/**`
 * and `.env`, each matched on its own. Left to picomatch, a set may not hold a `/` (it would split a
 * path segment) and its wildcards run through a backtracking RegExp, so rules such as
 * `Read({*.pem,*.key})` could not be used; expanded, each alternative gets the linear matching.
 *
 * Only sets with a comma at their own level are expanded; `{1..3}` or `{a}` stay for picomatch. An
 * escaped `\{` and a `{` inside `[...]` are literal.
 */

/** The first `{…}` with a top-level comma: where it opens and closes, and its alternatives. */
function firstSet(pattern: string): { open: number; close: number; alternatives: string[] } | null {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      i = Math.max(i, bracketEnd(pattern, i));
      continue;
    }
    if (c !== '{') continue;
    let depth = 0;
    let close = -1;
    const commas: number[] = [];
    for (let j = i; j < pattern.length && close < 0; j++) {
      const d = pattern[j];
      if (d === '\\') j++;
      else if (d === '[') j = Math.max(j, bracketEnd(pattern, j));
      else if (d === '{') depth++;
      else if (d === '}' && --depth === 0) close = j;
      else if (d === ',' && depth === 1) commas.push(j);
    }
    // Unmatched, or no comma: not a set to expand here; one inside it may be (`{{a,b}}`).
    if (close < 0 || commas.length === 0) continue;
    const cuts = [i, ...commas, close];
    const alternatives = cuts.slice(1).map((end, k) => pattern.slice((cuts[k] ?? i) + 1, end));
    return { open: i, close, alternatives };
  }
  return null;
}

/**
 * Every pattern the brace sets stand for, in order. Throws `tooMany(limit)` past `limit`
 * alternatives: `{a,b}` ten times over is a thousand patterns.
 */
export function expandBraces(pattern: string, limit: number, tooMany: () => Error): string[] {
  const out: string[] = [];
  const expand = (prefix: string, rest: string): void => {
    const set = firstSet(rest);
    if (set === null) {
      if (out.length >= limit) throw tooMany();
      out.push(prefix + rest);
      return;
    }
    const head = prefix + rest.slice(0, set.open);
    const tail = rest.slice(set.close + 1);
    for (const alternative of set.alternatives) expand(head, alternative + tail);
  };
  expand('', pattern);
  return out;
}
