export interface DiffLine {
  op: '+' | '-' | ' ' | '@';
  text: string;
}

const CONTEXT = 3;
/** Lines a diff keeps for display: a rewrite of a huge file must not bloat the transcript. */
export const MAX_DIFF_LINES = 400;
/** Past this many changed lines on each side, skip the LCS and show a plain replace. */
const LCS_LIMIT = 2000;

function lcsOps(a: readonly string[], b: readonly string[]): DiffLine[] {
  if (a.length > LCS_LIMIT || b.length > LCS_LIMIT || a.length * b.length > 4_000_000) {
    return [
      ...a.map((text) => ({ op: '-' as const, text })),
      ...b.map((text) => ({ op: '+' as const, text })),
    ];
  }
  // Classic LCS table, then walk it; inputs are the middle part that differs, usually small.
  const n = a.length;
  const m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as Uint32Array;
    const next = table[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--)
      row[j] = a[i] === b[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] ?? '' });
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))
      out.push({ op: '-', text: a[i++] ?? '' });
    else out.push({ op: '+', text: b[j++] ?? '' });
  }
  while (i < n) out.push({ op: '-', text: a[i++] ?? '' });
  while (j < m) out.push({ op: '+', text: b[j++] ?? '' });
  return out;
}

/**
 * A line diff of two texts with three lines of context around each change; runs of unchanged lines
 * between hunks become one `@` line giving the line number where the next hunk starts.
 */
export function diffLines(
  before: string,
  after: string,
): { lines: DiffLine[]; added: number; removed: number } {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: DiffLine[] = [
    ...a.slice(0, start).map((text) => ({ op: ' ' as const, text })),
    ...lcsOps(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map((text) => ({ op: ' ' as const, text })),
  ];
  const keep = ops.map(() => false);
  ops.forEach((line, k) => {
    if (line.op === ' ') return;
    for (let d = Math.max(0, k - CONTEXT); d <= Math.min(ops.length - 1, k + CONTEXT); d++) keep[d] = true;
  });
  const lines: DiffLine[] = [];
  let oldLine = 1;
  ops.forEach((line, k) => {
    if (keep[k]) {
      if (k > 0 && !keep[k - 1]) lines.push({ op: '@', text: `@@ line ${oldLine} @@` });
      lines.push(line);
    }
    if (line.op !== '+') oldLine++;
  });
  const shown =
    lines.length > MAX_DIFF_LINES
      ? [
          ...lines.slice(0, MAX_DIFF_LINES),
          { op: '@' as const, text: `@@ ${lines.length - MAX_DIFF_LINES} more diff lines not shown @@` },
        ]
      : lines;
  return {
    lines: shown,
    added: ops.filter((l) => l.op === '+').length,
    removed: ops.filter((l) => l.op === '-').length,
  };
}
