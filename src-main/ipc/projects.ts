import { AppError } from '../platform/errors';
import { listDirectory } from '../workspace/folder-browser';
import type { HandlerMap } from './router';
import type { Services } from './services';

type ProjectChannels =
  | 'projects.recent'
  | 'projects.current'
  | 'projects.open'
  | 'projects.opened'
  | 'projects.forget'
  | 'fs.listDirectory'
  | 'fs.pickDirectory';

export function projectHandlers(s: Services): Pick<HandlerMap, ProjectChannels> {
  return {
    'projects.recent': () => s.workspace.recent(),
    'projects.current': () => s.workspace.current(),
    'projects.open': ({ path }) => s.workspace.open(path),
    'projects.opened': () => s.workspace.openProjects(),
    'projects.forget': ({ path }) => s.workspace.forget(path),
    'fs.listDirectory': ({ path, showHidden }) => listDirectory(path, showHidden ?? false),
    'fs.pickDirectory': async (_input, ctx) => {
      if (!s.folderPicker || ctx.transport !== 'electron') {
        throw new AppError(
          'UNAVAILABLE',
          'A native folder picker exists only in the desktop app; type or browse to the path instead.',
        );
      }
      return { path: await s.folderPicker.pick() };
    },
  };
}
