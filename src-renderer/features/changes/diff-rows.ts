import type { DiffLine, FileDiff } from '@shared/ipc/contract/changes';
import { highlightLines, languageForPath, type Token } from '../transcript/code-highlight';
import type { ReviewComment } from './review-store';

/**
 * A file's diff as the flat list of rows the virtualised view draws: hunk headers, lines (unified)
 * or pairs of lines (side by side: a run of removed lines beside the added lines that replace it),
 * and after a line its review comments and the open comment editor.
 */

export interface LineRef {
  side: 'old' | 'new';
  line: number;
  text: string;
}

export type Row =
  | { type: 'hunk'; key: string; hunk: number; header: string }
  | { type: 'line'; key: string; line: DiffLine }
  | { type: 'pair'; key: string; left: DiffLine | null; right: DiffLine | null }
  | { type: 'comment'; key: string; comment: ReviewComment }
  | { type: 'editor'; key: string; target: LineRef };

/** Which side and number a line is commented on: a removed line by its old number, others by their new. */
export function refOf(l: DiffLine): LineRef {
  return l.kind === 'del'
    ? { side: 'old', line: l.oldLine ?? 0, text: l.text }
    : { side: 'new', line: l.newLine ?? 0, text: l.text };
}

export const refKey = (r: Pick<LineRef, 'side' | 'line'>) => `${r.side}:${r.line}`;

/** Side-by-side pairs of one hunk: context beside itself, removed lines beside the added ones. */
function pairs(lines: readonly DiffLine[]): Array<[DiffLine | null, DiffLine | null]> {
  const out: Array<[DiffLine | null, DiffLine | null]> = [];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i] as DiffLine;
    if (l.kind === 'context') {
      out.push([l, l]);
      i += 1;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i]?.kind === 'del') dels.push(lines[i++] as DiffLine);
    while (i < lines.length && lines[i]?.kind === 'add') adds.push(lines[i++] as DiffLine);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push([dels[k] ?? null, adds[k] ?? null]);
  }
  return out;
}

export function buildRows(
  diff: FileDiff,
  layout: 'unified' | 'split',
  comments: readonly ReviewComment[],
  editing: LineRef | null,
): Row[] {
  const byLine = new Map<string, ReviewComment[]>();
  for (const c of comments) {
    if (c.file !== diff.path) continue;
    const k = refKey(c);
    byLine.set(k, [...(byLine.get(k) ?? []), c]);
  }
  const rows: Row[] = [];
  const after = (refs: LineRef[]) => {
    for (const r of refs) {
      for (const c of byLine.get(refKey(r)) ?? []) rows.push({ type: 'comment', key: c.id, comment: c });
      if (editing && refKey(editing) === refKey(r))
        rows.push({ type: 'editor', key: `edit-${refKey(r)}`, target: editing });
    }
  };
  diff.hunks.forEach((h, hi) => {
    rows.push({ type: 'hunk', key: `h${hi}`, hunk: hi, header: h.header });
    if (layout === 'unified') {
      h.lines.forEach((l, li) => {
        rows.push({ type: 'line', key: `h${hi}l${li}`, line: l });
        after([refOf(l)]);
      });
    } else {
      pairs(h.lines).forEach(([left, right], pi) => {
        rows.push({ type: 'pair', key: `h${hi}p${pi}`, left, right });
        const refs: LineRef[] = [];
        if (left && left.kind === 'del') refs.push(refOf(left));
        if (right) refs.push(refOf(right));
        after(refs);
      });
    }
  });
  return rows;
}

/** Syntax colours per line: each side highlighted as one piece of code, as the tool cards' diffs are. */
export function highlightDiff(diff: FileDiff): Map<DiffLine, Token[]> {
  const language = diff.symlink ? null : languageForPath(diff.path);
  const all = diff.hunks.flatMap((h) => h.lines);
  const oldSide = all.filter((l) => l.kind !== 'add');
  const newSide = all.filter((l) => l.kind !== 'del');
  const oldTokens = highlightLines(
    oldSide.map((l) => l.text),
    language,
  );
  const newTokens = highlightLines(
    newSide.map((l) => l.text),
    language,
  );
  const out = new Map<DiffLine, Token[]>();
  oldSide.forEach((l, i) => out.set(l, oldTokens[i] ?? []));
  // Context lines take the new side's colours.
  newSide.forEach((l, i) => out.set(l, newTokens[i] ?? []));
  return out;
}
