import { structuredPatch } from 'diff';

/** One line of a diff as the UI draws it; `@` is a header between hunks (the shared DiffDisplay). */
export interface DiffLine {
  op: '+' | '-' | ' ' | '@';
  text: string;
}

const CONTEXT = 3;
/** Lines a diff keeps for display: a rewrite of a huge file must not bloat the transcript. */
export const MAX_DIFF_LINES = 400;
/**
 * Past this edit distance (or this long), jsdiff gives up and the change shows as a plain replace:
 * Myers' algorithm is O(N·D), so two large, wholly different texts must not stall the main process.
 */
const MAX_EDIT_LENGTH = 1000;
const DIFF_TIMEOUT_MS = 200;

/**
 * Lines as `split('\n')` sees them: a final newline makes a last, empty line, so adding or removing
 * one shows as an empty line added or removed (never jsdiff's "No newline at end of file" marker).
 */
function asLines(text: string): string {
  return text === '' ? '' : `${text}\n`;
}

function wholeReplace(before: string, after: string): DiffLine[] {
  const lines = (text: string) => (text === '' ? [] : text.split('\n'));
  return [
    ...lines(before).map((text) => ({ op: '-' as const, text })),
    ...lines(after).map((text) => ({ op: '+' as const, text })),
  ];
}

/**
 * A line diff of two texts (jsdiff's structuredPatch) with three lines of context around each
 * change; each hunk that does not start at the top gets an `@` line giving the line number where it
 * starts in the old text.
 */
export function diffLines(
  before: string,
  after: string,
): { lines: DiffLine[]; added: number; removed: number } {
  const patch = structuredPatch('a', 'b', asLines(before), asLines(after), undefined, undefined, {
    context: CONTEXT,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: DIFF_TIMEOUT_MS,
  });
  const lines: DiffLine[] = [];
  if (patch === undefined) lines.push(...wholeReplace(before, after));
  else
    for (const hunk of patch.hunks) {
      if (hunk.oldStart > 1) lines.push({ op: '@', text: `@@ line ${hunk.oldStart} @@` });
      for (const line of hunk.lines) {
        const op = line[0];
        if (op === '+' || op === '-' || op === ' ') lines.push({ op, text: line.slice(1) });
      }
    }
  const added = lines.filter((l) => l.op === '+').length;
  const removed = lines.filter((l) => l.op === '-').length;
  const shown =
    lines.length > MAX_DIFF_LINES
      ? [
          ...lines.slice(0, MAX_DIFF_LINES),
          { op: '@' as const, text: `@@ ${lines.length - MAX_DIFF_LINES} more diff lines not shown @@` },
        ]
      : lines;
  return { lines: shown, added, removed };
}
