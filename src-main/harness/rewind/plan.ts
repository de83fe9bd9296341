import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../platform/errors';
import { realpathNearest } from '../../platform/real-path';
import { carapaceHomeReason, protectedPathReason } from '../permissions/protected-paths';
import { linesAfterCuts } from '../session/cut-lines';
import type { TranscriptLine } from '../session/transcript-file';
import { hashContent } from '../tools/read-file-state';
import { isInside } from '../tools/paths';
import { headOf, readBlob } from './history-store';

type FileLine = Extract<TranscriptLine, { type: 'file' }>;

/** One file a rewind would put back. */
export interface RewindFile {
  /** Absolute path, as the transcript recorded it. */
  path: string;
  /** The path relative to the project, for display. */
  display: string;
  /** Put the earlier content back, or delete a file the agents created since. */
  action: 'restore' | 'delete';
  /** The hash of the content to put back (null for a delete). */
  restoreHash: string | null;
  /** The file is not what the agents last wrote: the person (or another session) changed it since. */
  changedSince: boolean;
  /** Why this file will not be written at all (outside the project, protected, snapshot missing). */
  refused: string | null;
}

export interface RewindPlan {
  messageId: string;
  /** How many transcript items go (the message and everything after it). */
  itemsRemoved: number;
  files: RewindFile[];
  /** HEAD when the agents first changed a file being put back, and now, when they differ. */
  headMoved: { then: string; now: string | null } | null;
  /** Something would be lost or skipped: the person must confirm first. */
  needsConfirmation: boolean;
}

export interface PlanContext {
  projectRoot: string;
  /** The session's own folder, where the before-images are kept. */
  sessionDir: string;
  /** Carapace's data folder: never written by a rewind, even when it lies inside the project. */
  carapaceHome?: string | undefined;
}

/** The current content's hash, or null when there is no file; a link or folder is reported. */
function currentState(file: string): { hash: string | null; odd: string | null } {
  try {
    const info = lstatSync(file);
    if (info.isSymbolicLink()) return { hash: null, odd: 'it is now a symbolic link' };
    if (!info.isFile()) return { hash: null, odd: 'it is no longer a regular file' };
    return { hash: hashContent(readFileSync(file)), odd: null };
  } catch {
    return { hash: null, odd: null };
  }
}

/**
 * Why a rewind must not write `file`, or null. The transcript is untrusted input (anyone can edit a
 * JSONL file), so every path is checked as the permission system checks an agent's write: inside
 * the project as written and as resolved (no link out of it), not a protected path (`.git/`,
 * `.claude/settings*`, …), not Carapace's own data folder.
 */
export function refusalFor(file: string, ctx: PlanContext): string | null {
  if (!path.isAbsolute(file) || file.includes('\0')) return 'the transcript names it oddly';
  const root = path.resolve(ctx.projectRoot);
  if (!isInside(root, path.resolve(file)) || path.resolve(file) === root) return 'it is outside the project';
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return 'the project folder cannot be read';
  }
  if (!isInside(realRoot, realpathNearest(path.dirname(path.resolve(file)))))
    return 'a folder on its path leads outside the project';
  const guarded = protectedPathReason(file, root) ?? carapaceHomeReason(file, ctx.carapaceHome);
  return guarded ? `it is protected (${guarded})` : null;
}

/**
 * What "Rewind to here" at `messageId` would do, from the session's transcript lines and the disk as
 * they are now: every file the session's agents changed since that message (its first before-image
 * is put back, or the file deleted if they created it), whether each still holds what the agents
 * last wrote, and whether HEAD moved since. Nothing is written here.
 */
export function planRewind(
  lines: readonly TranscriptLine[],
  messageId: string,
  ctx: PlanContext,
): RewindPlan {
  const kept = linesAfterCuts(lines);
  const at = kept.findIndex((l) => l.type === 'item' && l.item.id === messageId);
  const target = at < 0 ? undefined : kept[at];
  if (
    !target ||
    target.type !== 'item' ||
    target.item.kind !== 'message' ||
    target.item.role !== 'user' ||
    target.item.origin !== 'user'
  )
    throw new AppError(
      'NOT_FOUND',
      'There is no message of yours with that id in this session to rewind to.',
    );
  const after = kept.slice(at);
  const itemsRemoved = after.filter((l) => l.type === 'item').length;
  // Per file, in order: the first change after the message (what to put back) and the last (what
  // the agents left there).
  const first = new Map<string, FileLine>();
  const last = new Map<string, FileLine>();
  for (const line of after) {
    if (line.type !== 'file') continue;
    if (!first.has(line.path)) first.set(line.path, line);
    last.set(line.path, line);
  }
  const files: RewindFile[] = [];
  for (const [file, earliest] of first) {
    const latest = last.get(file) ?? earliest;
    const now = currentState(file);
    let refused = refusalFor(file, ctx) ?? now.odd;
    if (
      refused === null &&
      earliest.beforeHash !== null &&
      readBlob(ctx.sessionDir, earliest.beforeHash) === null
    )
      refused = 'its earlier content was not kept (or was altered) in the session folder';
    files.push({
      path: file,
      display: isInside(ctx.projectRoot, file) ? path.relative(ctx.projectRoot, file) : file,
      action: earliest.beforeHash === null ? 'delete' : 'restore',
      restoreHash: earliest.beforeHash,
      changedSince: now.odd !== null || now.hash !== latest.afterHash,
      refused,
    });
  }
  const then = [...first.values()].find((l) => l.head !== null)?.head ?? null;
  const headNow = then === null ? null : headOf(ctx.projectRoot);
  const headMoved = then !== null && headNow !== then ? { then, now: headNow } : null;
  return {
    messageId,
    itemsRemoved,
    files,
    headMoved,
    needsConfirmation: headMoved !== null || files.some((f) => f.changedSince || f.refused !== null),
  };
}
