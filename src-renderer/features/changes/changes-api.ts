import { getClient } from '../../ipc/client';
import { loadStatuses } from '../worktrees/worktree-actions';

/** The Changes view's calls to the main process (workspace/changes). */
export const changesApi = {
  list: (sessionId: string) => getClient().invoke('changes.list', { sessionId }),
  diff: (sessionId: string, path: string) => getClient().invoke('changes.diff', { sessionId, path }),
  stageFile: (sessionId: string, path: string) =>
    getClient().invoke('changes.stageFile', { sessionId, path }),
  stageHunk: (sessionId: string, path: string, hunk: number, header: string) =>
    getClient().invoke('changes.stageHunk', { sessionId, path, hunk, header }),
  discardHunk: (sessionId: string, path: string, hunk: number, header: string) =>
    getClient().invoke('changes.discardHunk', { sessionId, path, hunk, header, confirmed: true }),
  suggestMessage: (sessionId: string) => getClient().invoke('changes.suggestMessage', { sessionId }),
  // A commit moves a branch: worktrees' ahead/behind in the sidebar are read again.
  commit: (sessionId: string, message: string) =>
    getClient()
      .invoke('changes.commit', { sessionId, message })
      .finally(() => void loadStatuses()),
  openInEditor: (sessionId: string, path: string) =>
    getClient().invoke('changes.openInEditor', { sessionId, path }),
};
