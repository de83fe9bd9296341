import type { ProjectTrustView, TrustedFolder } from '@shared/domain/trust';
import { projectTrustState } from '../harness/permissions/trust';
import type { HandlerMap } from './router';
import type { Services } from './services';

type TrustChannels = 'trust.get' | 'trust.decide' | 'trust.list' | 'trust.revoke';

function view(s: Services, projectId: string): ProjectTrustView {
  const { path } = s.workspace.snapshot(projectId).project;
  return { projectId, path, ...projectTrustState(s.trust, path) };
}

function folders(s: Services): TrustedFolder[] {
  return s.trust.list().map((f) => ({
    path: f.path,
    accepted: f.accepted.length,
    declined: f.declined.length,
    updatedAt: f.updatedAt,
  }));
}

/**
 * Workspace trust: the project's own settings widen nothing until a person accepts them here. Only
 * folders the workspace knows (opened or recent) can be trusted, by id, never by a path sent in.
 */
export function trustHandlers(s: Services): Pick<HandlerMap, TrustChannels> {
  return {
    'trust.get': ({ projectId }) => view(s, projectId),
    // Only what the dialog showed is decided, and only if it is still in the files: an item added
    // between the dialog and the click (a `git pull`) stays pending and is asked about.
    'trust.decide': ({ projectId, trust, keys }) => {
      const { path } = s.workspace.snapshot(projectId).project;
      if (trust) s.trust.trustShown(path, keys);
      else s.trust.declineShown(path, keys);
      return view(s, projectId);
    },
    'trust.list': () => folders(s),
    'trust.revoke': ({ path }) => {
      s.trust.revoke(path);
      return folders(s);
    },
  };
}
