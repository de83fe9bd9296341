import type { HandlerMap } from './router';
import type { Services } from './services';

type WorktreeChannels =
  'worktrees.info' | 'worktrees.createSession' | 'worktrees.status' | 'worktrees.merge' | 'worktrees.remove';

/** Git worktrees per session (workspace/worktrees). */
export function worktreeHandlers(s: Services): Pick<HandlerMap, WorktreeChannels> {
  return {
    'worktrees.info': ({ projectId }) => s.worktrees.info(projectId),
    'worktrees.createSession': ({ projectId, base, fetch, model }) =>
      s.worktrees.createSession(projectId, base, fetch === true, model),
    'worktrees.status': ({ projectId }) => s.worktrees.status(projectId),
    'worktrees.merge': ({ sessionId }) => s.worktrees.merge(sessionId),
    'worktrees.remove': ({ sessionId, force }) => s.worktrees.remove(sessionId, force === true),
  };
}
