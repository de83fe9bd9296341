import type { HandlerMap } from './router';
import type { Services } from './services';

type WorktreeChannels =
  | 'worktrees.info'
  | 'worktrees.createSession'
  | 'worktrees.status'
  | 'worktrees.merge'
  | 'worktrees.loss'
  | 'worktrees.remove'
  | 'worktrees.continueInMain';

/** Git worktrees per session (workspace/worktrees). */
export function worktreeHandlers(s: Services): Pick<HandlerMap, WorktreeChannels> {
  return {
    'worktrees.info': ({ projectId }) => s.worktrees.info(projectId),
    'worktrees.createSession': ({ projectId, base, fetch, model }) =>
      s.worktrees.createSession(projectId, base, fetch === true, model),
    'worktrees.status': ({ projectId }) => s.worktrees.status(projectId),
    'worktrees.merge': ({ sessionId }) => s.worktrees.merge(sessionId),
    'worktrees.loss': ({ sessionId }) => s.worktrees.loss(sessionId),
    'worktrees.remove': async ({ sessionId, force }) => {
      const projectId = s.sessions.projectOf(sessionId);
      const r = await s.worktrees.remove(sessionId, force === true);
      // Archived, it leaves the tab strip, and its terminal's shell (in a folder now gone) ends.
      if (r.archived) {
        s.workspace.closeTab(projectId, sessionId);
        s.terminals.closeSession(sessionId);
      }
      return r;
    },
    'worktrees.continueInMain': ({ sessionId }) => s.worktrees.continueInMain(sessionId),
  };
}
