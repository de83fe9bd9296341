import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { PermissionPreview } from '@shared/domain/permissions';
import { errnoCode } from '../../platform/errors';
import { diffLines, type DiffLine } from '../tools/diff';
import { planEdit } from '../tools/edit-plan';
import { staleReason, type ExistingFile } from '../tools/file-guard';
import { resolveToolPath } from '../tools/paths';
import { spellHidden } from './visible-text';
import type { ToolUseContext } from '../tools/tool';

/** Bounds of a preview: it travels to every window and sits in a dialog. */
export const PREVIEW_MAX_LINES = 200;
export const PREVIEW_MAX_LINE_CHARS = 240;
/** A file larger than this is not read for the preview (the change alone is shown). */
export const PREVIEW_MAX_FILE_BYTES = 1024 * 1024;

/** A line as it can be shown: hidden characters spelled out, cut to the line bound. */
function visible(text: string): { text: string; cut: boolean } {
  // A CRLF file's line ending is not content worth flagging.
  const shown = spellHidden(text.replace(/\r$/, ''));
  if (shown.length <= PREVIEW_MAX_LINE_CHARS) return { text: shown, cut: false };
  const more = shown.length - PREVIEW_MAX_LINE_CHARS;
  return { text: `${shown.slice(0, PREVIEW_MAX_LINE_CHARS)}… (${more} more characters)`, cut: true };
}

type Read = ExistingFile | { tooLarge: number } | { unreadable: string };

/**
 * Reads the file the call would change, without ever blocking: O_NONBLOCK so a FIFO cannot hang the
 * main process, and only regular files up to the size bound.
 */
async function readForPreview(file: string): Promise<Read> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { exists: false };
    return { unreadable: `the file cannot be read (${errnoCode(error) ?? String(error)})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { unreadable: 'it is not a regular file' };
    if (info.size > PREVIEW_MAX_FILE_BYTES) return { tooLarge: info.size };
    return { exists: true, content: await handle.readFile('utf8'), mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

function bounded(
  path: string,
  created: boolean,
  diff: { lines: DiffLine[]; added: number; removed: number },
  note?: string,
): PermissionPreview {
  let truncated = diff.lines.some((l) => l.op === '@' && /more diff lines not shown/.test(l.text));
  let lines = diff.lines.map((l) => {
    if (l.op === '@') return l;
    const shown = visible(l.text);
    truncated ||= shown.cut;
    return { op: l.op, text: shown.text };
  });
  if (lines.length > PREVIEW_MAX_LINES) {
    truncated = true;
    lines = [
      ...lines.slice(0, PREVIEW_MAX_LINES),
      {
        op: '@',
        text: `@@ preview cut after ${PREVIEW_MAX_LINES} lines: ${diff.added} added and ${diff.removed} removed in all @@`,
      },
    ];
  }
  return {
    kind: 'diff',
    path,
    created,
    lines,
    added: diff.added,
    removed: diff.removed,
    truncated,
    ...(note ? { note } : {}),
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * What an Edit or Write call would do to its file, as a bounded diff for the permission prompt. Edit
 * goes through the same planEdit as the tool, so the preview is what the tool would write (replace_all
 * included); a call that would fail says so instead. Undefined for other tools.
 */
export async function previewFileChange(
  toolName: string,
  input: Record<string, unknown>,
  ctx: ToolUseContext,
): Promise<PermissionPreview | undefined> {
  if (toolName !== 'Edit' && toolName !== 'Write') return undefined;
  const rawPath = str(input['file_path']);
  if (rawPath === null) return undefined;
  const file = resolveToolPath(rawPath, ctx.cwd);
  const read = await readForPreview(file);
  const none = { lines: [], added: 0, removed: 0 };

  if (toolName === 'Write') {
    const content = str(input['content']);
    if (content === null) return bounded(file, false, none, 'The call has no content to write.');
    if ('tooLarge' in read)
      return bounded(
        file,
        false,
        diffLines('', content),
        `The existing file (${read.tooLarge} bytes) is too large to compare; this is the whole new content.`,
      );
    if ('unreadable' in read)
      return bounded(file, false, diffLines('', content), `Not compared with the file: ${read.unreadable}.`);
    const stale = read.exists ? staleReason(file, read, ctx) : null;
    return bounded(
      file,
      !read.exists,
      diffLines(read.exists ? read.content : '', content),
      stale ? `Write will refuse this as written: ${stale}` : undefined,
    );
  }

  const oldString = str(input['old_string']);
  const newString = str(input['new_string']);
  if (oldString === null || newString === null)
    return bounded(file, false, none, 'The call is missing old_string or new_string.');
  const replaceAll = input['replace_all'] === true;
  if ('tooLarge' in read || 'unreadable' in read) {
    const why =
      'tooLarge' in read ? `the file is ${read.tooLarge} bytes, too large to preview` : read.unreadable;
    return bounded(
      file,
      false,
      diffLines(oldString, newString),
      `Shown without the file around it (${why}): the text to replace and its replacement${replaceAll ? ', at every occurrence' : ''}.`,
    );
  }
  const plan = planEdit(file, read, {
    old_string: oldString,
    new_string: newString,
    replace_all: replaceAll,
  });
  if (!plan.ok) return bounded(file, false, none, `This edit will fail: ${plan.message}`);
  const stale = read.exists ? staleReason(file, read, ctx) : null;
  return bounded(
    file,
    plan.created,
    diffLines(plan.before, plan.after),
    stale ? `Edit will refuse this as written: ${stale}` : undefined,
  );
}
