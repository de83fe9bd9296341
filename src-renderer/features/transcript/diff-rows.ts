import type { DiffDisplay } from '@shared/domain/messages';

/** One line of a diff as the main process sends it: added, removed, context, or a hunk header. */
export type DiffViewLine = DiffDisplay['lines'][number];

/** A diff line with the line numbers it has in the old and the new file (null where it has none). */
export interface DiffRow extends DiffViewLine {
  oldNo: number | null;
  newNo: number | null;
}

/** `@@ -12,3 +12,4 @@` (unified diff) or `@@ line 12 @@` (the old line where the hunk starts). */
const UNIFIED = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
const OLD_ONLY = /^@@ line (\d+) @@/;

/**
 * Numbers each line of the diff. The lines are the hunks the main process computed (with the `diff`
 * package); the renderer only counts. A diff starts at line 1 of both files unless a header says
 * otherwise; after a header it cannot read (e.g. "more lines not shown"), lines go unnumbered.
 */
export function diffRows(lines: readonly DiffViewLine[]): DiffRow[] {
  let oldNo: number | null = 1;
  let newNo: number | null = 1;
  // Lines added minus lines removed so far: where a hunk starts in the new file, given the old.
  let shift = 0;
  return lines.map((line) => {
    switch (line.op) {
      case '@': {
        const unified = UNIFIED.exec(line.text);
        const old = OLD_ONLY.exec(line.text);
        if (unified) {
          oldNo = Number(unified[1]);
          newNo = Number(unified[2]);
        } else if (old) {
          oldNo = Number(old[1]);
          newNo = oldNo + shift;
        } else {
          oldNo = null;
          newNo = null;
        }
        return { ...line, oldNo: null, newNo: null };
      }
      case '+':
        shift++;
        return { ...line, oldNo: null, newNo: newNo === null ? null : newNo++ };
      case '-':
        shift--;
        return { ...line, oldNo: oldNo === null ? null : oldNo++, newNo: null };
      case ' ':
        return { ...line, oldNo: oldNo === null ? null : oldNo++, newNo: newNo === null ? null : newNo++ };
    }
  });
}
