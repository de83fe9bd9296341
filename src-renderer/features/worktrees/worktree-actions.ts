import { IpcRequestError } from '@shared/domain/errors';
import type { WorktreeMergeResult } from '@shared/ipc/contract/worktrees';
import { getClient } from '../../ipc/client';
import { openSession } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';
import { useWorktrees } from './worktree-store';

const projectId = () => useStore.getState().project?.id ?? null;

/** What a failed request says, for the dialogs (they show it rather than a toast). */
export function errorText(error: unknown): string {
  return error instanceof IpcRequestError || error instanceof Error ? error.message : String(error);
}

/** Reads whether the open project is in git, and its branches. */
export async function loadRepoInfo(): Promise<void> {
  const id = projectId();
  if (id === null) return;
  try {
    const repo = await getClient().invoke('worktrees.info', { projectId: id });
    useWorktrees.setState({ info: { projectId: id, repo } });
  } catch {
    useWorktrees.setState({ info: null });
  }
}

/** Requests of statuses sent so far; an answer older than one already shown is dropped. */
let asked = 0;
let shown = 0;

/**
 * Ahead/behind of every worktree session of the open project, and whether each worktree is still
 * there. Asked when something may have moved them (a turn ended, a merge, a session opened), never on
 * a timer; answers can arrive out of order, so a late one never replaces a newer one.
 */
export async function loadStatuses(): Promise<void> {
  const id = projectId();
  if (id === null) return;
  const n = ++asked;
  try {
    const list = await getClient().invoke('worktrees.status', { projectId: id });
    if (n < shown) return;
    shown = n;
    useWorktrees.setState({ statuses: Object.fromEntries(list.map((s) => [s.sessionId, s])) });
  } catch {
    // Counts are a nicety: the sidebar keeps the last ones.
  }
}

/** A new session in its own worktree; throws with the main process's message. */
export async function createWorktreeSession(base: string, fetch: boolean): Promise<void> {
  const id = projectId();
  if (id === null) return;
  const session = await getClient().invoke('worktrees.createSession', { projectId: id, base, fetch });
  const store = useStore.getState();
  store.setTranscript(session.id, session.id, []);
  store.setAgents(session.id, []);
  store.requestComposerFocus(session.id);
  void loadStatuses();
}

export async function mergeWorktree(sessionId: string): Promise<WorktreeMergeResult> {
  try {
    return await getClient().invoke('worktrees.merge', { sessionId });
  } finally {
    // Even a refused merge may have committed the worktree's changes first.
    await loadStatuses();
  }
}

/** What deleting a session's worktree would lose: uncommitted files, commits no other branch has. */
export function worktreeLoss(sessionId: string): Promise<{ files: string[]; commits: number }> {
  return getClient().invoke('worktrees.loss', { sessionId });
}

/** Deletes the worktree and its branch; the main process then archives the session (`archived`). */
export async function removeWorktree(sessionId: string, force: boolean): Promise<{ archived: boolean }> {
  try {
    return await getClient().invoke('worktrees.remove', { sessionId, force });
  } finally {
    await loadStatuses();
  }
}

/**
 * A session whose worktree is gone, continued in the main checkout: the new session opens in its
 * tab; `carry` hands it what the old one had (the composer's draft) before it shows.
 */
export async function continueInMain(sessionId: string, carry: (nextId: string) => void): Promise<void> {
  try {
    const next = await getClient().invoke('worktrees.continueInMain', { sessionId });
    carry(next.id);
    await openSession(next.id);
  } catch (error) {
    showToast(`Continuing in the main checkout: ${errorText(error)}`);
  }
}
