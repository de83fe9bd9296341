import { IpcRequestError } from '@shared/domain/errors';
import type { WorktreeMergeResult } from '@shared/ipc/contract/worktrees';
import { getClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
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

/** Ahead/behind of every worktree session of the open project. */
export async function loadStatuses(): Promise<void> {
  const id = projectId();
  if (id === null) return;
  try {
    const list = await getClient().invoke('worktrees.status', { projectId: id });
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

export async function removeWorktree(sessionId: string, force: boolean): Promise<void> {
  try {
    await getClient().invoke('worktrees.remove', { sessionId, force });
  } finally {
    await loadStatuses();
  }
}
