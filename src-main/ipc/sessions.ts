import type { HandlerMap } from './router';
import type { Services } from './services';

type SessionChannels =
  | 'sessions.list'
  | 'sessions.create'
  | 'sessions.get'
  | 'sessions.send'
  | 'sessions.stop'
  | 'sessions.retry'
  | 'sessions.rename'
  | 'sessions.setModel'
  | 'sessions.setPermissionMode'
  | 'sessions.modes'
  | 'sessions.setBackground'
  | ArchiveChannels
  | 'agents.list'
  | 'agents.transcript'
  | 'agents.stop'
  | 'tabs.open'
  | 'tabs.close'
  | 'tabs.activate'
  | 'tabs.reorder';

type ArchiveChannels =
  | 'sessions.archive'
  | 'sessions.archived'
  | 'sessions.unarchive'
  | 'sessions.delete'
  | 'sessions.trash'
  | 'sessions.restore'
  | 'sessions.deleteForever';

export function sessionHandlers(s: Services): Pick<HandlerMap, SessionChannels> {
  return {
    'sessions.list': ({ projectId }) => s.sessions.list(projectId),
    'sessions.create': ({ projectId, model, coordinator }) =>
      s.workspace.createSession(projectId, model, coordinator === true),
    'sessions.get': ({ sessionId }) => s.sessions.get(sessionId),
    'sessions.send': ({ sessionId, text }) => s.sessions.send(sessionId, text),
    'sessions.stop': ({ sessionId }) => s.sessions.stop(sessionId),
    'sessions.retry': ({ sessionId }) => s.sessions.retry(sessionId),
    'sessions.rename': ({ sessionId, title }) => s.sessions.rename(sessionId, title),
    'sessions.setModel': ({ sessionId, model }) => s.sessions.setModel(sessionId, model),
    'sessions.setPermissionMode': ({ sessionId, mode }) => s.sessions.setPermissionMode(sessionId, mode),
    'sessions.modes': ({ projectId }) => {
      const modes = s.sessions.projectModes(projectId);
      return {
        defaultMode: modes.defaultMode,
        bypassAvailable: modes.bypass.available,
        bypassUnavailableReason: modes.bypass.available ? null : modes.bypass.reason,
        problems: modes.problems,
      };
    },
    'sessions.setBackground': ({ sessionId, background }) => s.workspace.setBackground(sessionId, background),
    ...archiveHandlers(s),
    'agents.list': ({ sessionId }) => s.sessions.agents(sessionId),
    'agents.transcript': ({ sessionId, agentId }) => s.sessions.agentTranscript(sessionId, agentId),
    'agents.stop': ({ sessionId, agentId }) => ({ stopped: s.sessions.stopAgent(sessionId, agentId) }),
    'tabs.open': ({ projectId, sessionId }) => s.workspace.openTab(projectId, sessionId),
    'tabs.close': ({ projectId, sessionId }) => s.workspace.closeTab(projectId, sessionId),
    'tabs.activate': ({ projectId, sessionId }) => s.workspace.activateTab(projectId, sessionId),
    'tabs.reorder': ({ projectId, order }) => s.workspace.reorderTabs(projectId, order),
  };
}

/**
 * Archive and trash: a session that leaves the list leaves the tab strip too, and its terminal's
 * shell ends (a dev server started there would otherwise run on, out of reach).
 */
function archiveHandlers(s: Services): Pick<HandlerMap, ArchiveChannels> {
  const archive = s.sessions.archive;
  const gone = (projectId: string, sessionId: string) => {
    s.workspace.closeTab(projectId, sessionId);
    s.terminals.closeSession(sessionId);
  };
  return {
    'sessions.archive': ({ projectId, sessionId }) => {
      const stored = archive.archive(projectId, sessionId);
      gone(projectId, sessionId);
      return stored;
    },
    'sessions.archived': ({ projectId }) => archive.archived(projectId),
    'sessions.unarchive': ({ projectId, sessionId }) => {
      archive.unarchive(projectId, sessionId);
      return s.sessions.summaryAfterReturn(projectId, sessionId);
    },
    'sessions.delete': ({ projectId, sessionId }) => {
      const stored = archive.delete(projectId, sessionId);
      gone(projectId, sessionId);
      return stored;
    },
    'sessions.trash': ({ projectId }) => archive.trash(projectId),
    'sessions.restore': ({ projectId, sessionId }) => {
      archive.restore(projectId, sessionId);
      return s.sessions.summaryAfterReturn(projectId, sessionId);
    },
    'sessions.deleteForever': ({ projectId, sessionId }) => {
      archive.deleteForever(projectId, sessionId);
      return { deleted: true as const };
    },
  };
}
