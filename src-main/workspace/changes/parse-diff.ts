import type { DiffHunk, DiffLine } from '@shared/ipc/contract/changes';

/**
 * A one-file unified diff (`git diff -- path`) cut into its hunks, each kept as the text git wrote
 * with the header of its own section (to build the patch that stages or discards exactly it) and as
 * numbered lines (to show and comment on). One path can have two sections: a file that became a
 * link (or a link that became a file) is a deletion and an addition, each with its own header, so a
 * hunk ends where its line counts say, not at the next `@@`.
 */

/** Lines shown of one file's diff; past this the rest is left out and the diff marked truncated. */
export const MAX_DIFF_LINES = 50_000;

export interface ParsedDiff {
  /** The first section's header: `diff --git`, mode and index lines, `---`/`+++`. */
  header: string;
  /** `patch`: the hunk's own section header and the hunk, as git apply takes it. */
  hunks: Array<DiffHunk & { patch: string }>;
  binary: boolean;
  symlink: boolean;
  truncated: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseFileDiff(text: string, maxLines = MAX_DIFF_LINES): ParsedDiff {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const sections: string[][] = [];
  let section: string[] | null = null;
  let binary = false;
  let symlink = false;
  let truncated = false;
  let shown = 0;
  let current: (DiffHunk & { patchLines: string[]; section: string[] }) | null = null;
  /** Lines of the current hunk still to come, on each side (from its `@@` counts). */
  let oldLeft = 0;
  let newLeft = 0;
  let oldNo = 0;
  let newNo = 0;
  const done: Array<DiffHunk & { patchLines: string[]; section: string[] }> = [];
  for (const line of lines) {
    const op = line[0];
    const inBody =
      current !== null &&
      (((oldLeft > 0 || newLeft > 0) && (op === ' ' || op === '-' || op === '+')) || op === '\\');
    if (current !== null && inBody) {
      current.patchLines.push(line);
      let row: DiffLine | null = null;
      if (op === ' ') {
        row = { kind: 'context', oldLine: oldNo++, newLine: newNo++, text: line.slice(1) };
        oldLeft--;
        newLeft--;
      } else if (op === '-') {
        row = { kind: 'del', oldLine: oldNo++, newLine: null, text: line.slice(1) };
        oldLeft--;
      } else if (op === '+') {
        row = { kind: 'add', oldLine: null, newLine: newNo++, text: line.slice(1) };
        newLeft--;
      }
      // `\ No newline at end of file` belongs to the patch but is no line of the file.
      if (row === null) continue;
      if (shown >= maxLines) {
        truncated = true;
        break;
      }
      current.lines.push(row);
      shown += 1;
      continue;
    }
    const m = HUNK.exec(line);
    if (m && section !== null) {
      if (shown >= maxLines) {
        truncated = true;
        break;
      }
      current = {
        header: line,
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
        patchLines: [line],
        section,
      };
      done.push(current);
      oldNo = current.oldStart;
      newNo = current.newStart;
      oldLeft = current.oldLines;
      newLeft = current.newLines;
      continue;
    }
    // A header line: after a hunk it starts the next section of the same path.
    if (section === null || current !== null) {
      section = [];
      sections.push(section);
      current = null;
    }
    section.push(line);
    if (line.startsWith('Binary files ') || line === 'GIT binary patch') binary = true;
    if (
      /^(new file mode|deleted file mode|new mode|old mode) 120000$/.test(line) ||
      /^index \S+ 120000$/.test(line)
    )
      symlink = true;
  }
  const hunks: ParsedDiff['hunks'] = done.map(({ patchLines, section: own, ...rest }) => ({
    ...rest,
    patch: `${[...own, ...patchLines].join('\n')}\n`,
  }));
  const first = sections[0] ?? [];
  return {
    header: first.length ? `${first.join('\n')}\n` : '',
    hunks,
    binary,
    symlink,
    truncated,
  };
}

/** The lines of a file as one all-added hunk: the diff of an untracked file. */
export function addedFileHunk(
  content: string,
  maxLines = MAX_DIFF_LINES,
): { hunk: DiffHunk | null; truncated: boolean } {
  const all = content.split('\n');
  if (all.at(-1) === '') all.pop();
  if (all.length === 0) return { hunk: null, truncated: false };
  const kept = all.slice(0, maxLines);
  return {
    hunk: {
      header: `@@ -0,0 +1,${all.length} @@`,
      oldStart: 0,
      oldLines: 0,
      newStart: 1,
      newLines: all.length,
      lines: kept.map((text, i) => ({ kind: 'add', oldLine: null, newLine: i + 1, text })),
    },
    truncated: all.length > kept.length,
  };
}
