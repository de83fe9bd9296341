import { z } from 'zod';
import { ModelId } from '../../domain/models';
import { SessionId, SessionSummary } from '../../domain/session';
import { channel, ProjectRef, SessionRef } from './common';

/** Git worktrees per session: made in the new-session flow, shown in the sidebar, merged or removed on close. */

export const WorktreeRepoInfo = z.object({
  /** The project is in a git repository (worktrees are offered only then). */
  isGit: z.boolean(),
  /** Local branches, the checked-out one first. */
  branches: z.array(z.string()),
  current: z.string().nullable(),
  /** The user setting `worktrees.default`: start new sessions in their own worktree. */
  defaultOn: z.boolean(),
});
export type WorktreeRepoInfo = z.infer<typeof WorktreeRepoInfo>;

export const WorktreeStatusView = z.object({
  sessionId: SessionId,
  branch: z.string(),
  base: z.string(),
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  /** Uncommitted files in the worktree. */
  dirty: z.number().int().nonnegative(),
  /** The worktree's folder is still there and still this worktree (false once removed or replaced). */
  exists: z.boolean(),
  /** When it is not: what happened, in words (the composer shows it); null while it is there. */
  problem: z.string().nullable(),
});
export type WorktreeStatusView = z.infer<typeof WorktreeStatusView>;

export const WorktreeMergeResult = z.object({
  kind: z.enum(['fast-forward', 'merge-commit', 'up-to-date']),
  commit: z.string(),
  /** For the dialog: what happened, in words. */
  message: z.string(),
});
export type WorktreeMergeResult = z.infer<typeof WorktreeMergeResult>;

/** A base branch or a worktree name as the UI sends it; git's own check-ref-format decides after. */
const BranchName = z.string().min(1).max(100);

export const requests = {
  'worktrees.info': channel(ProjectRef, WorktreeRepoInfo),
  /** A new session in its own worktree on a new branch `carapace/<name>` from `base` (fetched first when asked). */
  'worktrees.createSession': channel(
    z.strictObject({
      projectId: z.string().min(1).max(500),
      base: BranchName,
      fetch: z.boolean().optional(),
      model: ModelId.optional(),
    }),
    SessionSummary,
  ),
  /** Every worktree session of a project with its branch's ahead/behind against its base. */
  'worktrees.status': channel(ProjectRef, z.array(WorktreeStatusView)),
  /** Merges the session's branch into its base in the main checkout (its uncommitted changes committed first). */
  'worktrees.merge': channel(SessionRef, WorktreeMergeResult),
  /** What deleting would lose: uncommitted files, and commits on the branch no other branch, tag or remote has. */
  'worktrees.loss': channel(
    SessionRef,
    z.object({ files: z.array(z.string()), commits: z.number().int().nonnegative() }),
  ),
  /**
   * Removes the worktree and deletes its branch; losing uncommitted files or unmerged commits needs
   * `force` (a confirmation). The session is then archived (restorable, its transcript kept).
   */
  'worktrees.remove': channel(
    z.strictObject({ sessionId: SessionId, force: z.boolean().optional() }),
    z.object({ removed: z.literal(true), archived: z.boolean() }),
  ),
  /**
   * A session whose worktree is gone, continued as a new session in the main checkout: its finished
   * messages copied, the original left as it was. Refused while the worktree is still there.
   */
  'worktrees.continueInMain': channel(SessionRef, SessionSummary),
} as const;

export const events = {} as const;
