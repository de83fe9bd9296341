import type { DiffHunk, DiffLine } from '@shared/ipc/contract/changes';

/**
 * A one-file unified diff (`git diff -- path`) cut into its header and hunks, each hunk kept as the
 * text git wrote (to build the patch that stages or discards exactly it) and as numbered lines (to
 * show and comment on).
 */

/** Lines shown of one file's diff; past this the rest is left out and the diff marked truncated. */
export const MAX_DIFF_LINES = 50_000;

export interface ParsedDiff {
  /** Everything before the first hunk: `diff --git`, mode and index lines, `---`/`+++`. */
  header: string;
  hunks: Array<DiffHunk & { patch: string }>;
  binary: boolean;
  symlink: boolean;
  truncated: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseFileDiff(text: string, maxLines = MAX_DIFF_LINES): ParsedDiff {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const headerLines: string[] = [];
  const hunks: ParsedDiff['hunks'] = [];
  let binary = false;
  let symlink = false;
  let truncated = false;
  let shown = 0;
  let current: (DiffHunk & { patchLines: string[] }) | null = null;
  let oldNo = 0;
  let newNo = 0;
  const done: Array<DiffHunk & { patchLines: string[] }> = [];
  for (const line of lines) {
    const m = HUNK.exec(line);
    if (m) {
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
      };
      done.push(current);
      oldNo = current.oldStart;
      newNo = current.newStart;
      continue;
    }
    if (current === null) {
      headerLines.push(line);
      if (line.startsWith('Binary files ') || line === 'GIT binary patch') binary = true;
      if (
        /^(new file mode|deleted file mode|new mode|old mode) 120000$/.test(line) ||
        /^index \S+ 120000$/.test(line)
      )
        symlink = true;
      continue;
    }
    current.patchLines.push(line);
    const op = line[0];
    let row: DiffLine | null = null;
    if (op === ' ') row = { kind: 'context', oldLine: oldNo++, newLine: newNo++, text: line.slice(1) };
    else if (op === '-') row = { kind: 'del', oldLine: oldNo++, newLine: null, text: line.slice(1) };
    else if (op === '+') row = { kind: 'add', oldLine: null, newLine: newNo++, text: line.slice(1) };
    // `\ No newline at end of file` belongs to the patch but is no line of the file.
    if (row === null) continue;
    if (shown >= maxLines) {
      truncated = true;
      break;
    }
    current.lines.push(row);
    shown += 1;
  }
  for (const h of done) {
    const { patchLines, ...rest } = h;
    hunks.push({ ...rest, patch: `${patchLines.join('\n')}\n` });
  }
  return {
    header: headerLines.length ? `${headerLines.join('\n')}\n` : '',
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
