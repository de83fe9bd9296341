import { z } from 'zod';
import { channel, SessionRef } from './common';
import { SessionId } from '../../domain/session';

/**
 * The Changes view: what a session changed, against its worktree's base branch when it runs in a
 * worktree, else the project's uncommitted changes (`git diff HEAD` and untracked files); each file's
 * diff, staging and discarding a hunk, a commit, and opening a file in the system editor.
 */

/** A path as git lists it, relative to the project: never absolute, never `..`, never an option. */
export const ChangePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'a path cannot hold NUL')
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:/.test(p), 'the path must be relative to the project')
  .refine((p) => !p.startsWith('-'), 'a path cannot start with "-"')
  .refine((p) => !p.split(/[\\/]/).includes('..'), 'a path cannot hold ".."');

export const ChangeStatus = z.enum(['added', 'modified', 'deleted', 'renamed', 'untracked', 'typechange']);
export type ChangeStatus = z.infer<typeof ChangeStatus>;

export const ChangedFile = z.object({
  path: z.string(),
  /** The path before a rename. */
  oldPath: z.string().nullable(),
  status: ChangeStatus,
  /** Lines added and removed; null for a binary file. */
  additions: z.number().int().nonnegative().nullable(),
  deletions: z.number().int().nonnegative().nullable(),
  binary: z.boolean(),
  /** A symbolic link (its target is shown as its content, never followed). */
  symlink: z.boolean(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

export const ChangeSet = z.object({
  /** 'worktree': the session's worktree branch against its base; 'uncommitted': the project's changes. */
  source: z.enum(['worktree', 'uncommitted', 'not-git']),
  /** The base branch (worktree) or 'HEAD'. */
  base: z.string().nullable(),
  branch: z.string().nullable(),
  files: z.array(ChangedFile),
  /** More files changed than are listed. */
  truncated: z.boolean(),
});
export type ChangeSet = z.infer<typeof ChangeSet>;

export const DiffLine = z.object({
  kind: z.enum(['context', 'add', 'del']),
  oldLine: z.number().int().positive().nullable(),
  newLine: z.number().int().positive().nullable(),
  text: z.string(),
});
export type DiffLine = z.infer<typeof DiffLine>;

export const DiffHunk = z.object({
  header: z.string(),
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  lines: z.array(DiffLine),
});
export type DiffHunk = z.infer<typeof DiffHunk>;

export const FileDiff = z.object({
  path: z.string(),
  status: ChangeStatus,
  binary: z.boolean(),
  symlink: z.boolean(),
  hunks: z.array(DiffHunk),
  /** The diff was longer than the view takes; the rest is left out. */
  truncated: z.boolean(),
});
export type FileDiff = z.infer<typeof FileDiff>;

const FileRef = z.strictObject({ sessionId: SessionId, path: ChangePath });
/** A hunk by its place and header, so a diff that changed since it was shown is refused, not misapplied. */
const HunkRef = z.strictObject({
  sessionId: SessionId,
  path: ChangePath,
  hunk: z.number().int().nonnegative().max(100_000),
  header: z.string().max(10_000),
});

export const requests = {
  'changes.list': channel(SessionRef, ChangeSet),
  'changes.diff': channel(FileRef, FileDiff),
  'changes.stageFile': channel(FileRef, z.object({ staged: z.literal(true) })),
  'changes.stageHunk': channel(HunkRef, z.object({ staged: z.literal(true) })),
  /** Only after the person confirmed: `confirmed` must be true. */
  'changes.discardHunk': channel(
    HunkRef.extend({ confirmed: z.literal(true) }),
    z.object({ discarded: z.literal(true) }),
  ),
  /** The message a commit would get: a summary of the changed files. */
  'changes.suggestMessage': channel(SessionRef, z.object({ message: z.string() })),
  /** Commits what is staged, or everything listed when nothing is. */
  'changes.commit': channel(
    z.strictObject({ sessionId: SessionId, message: z.string().trim().min(1).max(20_000) }),
    z.object({ commit: z.string(), files: z.number().int().nonnegative() }),
  ),
  'changes.openInEditor': channel(FileRef, z.object({ opened: z.literal(true) })),
} as const;

export const events = {} as const;
