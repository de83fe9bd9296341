import { AppError } from '../platform/errors';
import type { HandlerMap } from './router';
import type { Services } from './services';

type ChangesChannels = Extract<keyof HandlerMap, `changes.${string}`>;

/** The Changes view: a session's changed files, diffs, staging, discarding, commits. */
export function changesHandlers(s: Services): Pick<HandlerMap, ChangesChannels> {
  return {
    'changes.list': ({ sessionId }) => s.changes.list(sessionId),
    'changes.diff': ({ sessionId, path }) => s.changes.diff(sessionId, path),
    'changes.stageFile': ({ sessionId, path }) => s.changes.stageFile(sessionId, path),
    'changes.stageHunk': ({ sessionId, path, hunk, header }) =>
      s.changes.stageHunk(sessionId, path, hunk, header),
    'changes.discardHunk': ({ sessionId, path, hunk, header }) =>
      s.changes.discardHunk(sessionId, path, hunk, header),
    'changes.suggestMessage': ({ sessionId }) => s.changes.suggestMessage(sessionId),
    'changes.commit': ({ sessionId, message }) => s.changes.commit(sessionId, message),
    'changes.openInEditor': ({ sessionId, path }, ctx) => {
      // The system editor is the desktop app's: a browser page (serve mode, maybe another machine) has none.
      if (ctx.transport !== 'electron')
        throw new AppError(
          'UNAVAILABLE',
          'Opening a file in the system editor is not available in the browser; it works in the desktop app.',
        );
      return s.changes.openInEditor(sessionId, path);
    },
  };
}
