import { create } from 'zustand';
import type { WorktreeRepoInfo, WorktreeStatusView } from '@shared/ipc/contract/worktrees';

/** What the worktree UI knows: the project's git branches, each worktree's counts, the close dialog. */
interface WorktreeState {
  /** The open project's repository (null until asked, or for another project). */
  info: { projectId: string; repo: WorktreeRepoInfo } | null;
  statuses: Record<string, WorktreeStatusView>;
  /** The worktree session whose close dialog is open. */
  closing: string | null;
  /** The new-session dialog is open. */
  creating: boolean;
}

export const useWorktrees = create<WorktreeState>(() => ({
  info: null,
  statuses: {},
  closing: null,
  creating: false,
}));
