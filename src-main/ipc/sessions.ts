import type { HandlerMap } from './router';
import type { Services } from './services';

type SessionChannels =
  | 'sessions.list'
  | 'sessions.create'
  | 'sessions.get'
  | 'sessions.send'
  | 'sessions.stop'
  | 'sessions.rename'
  | 'sessions.setModel'
  | 'sessions.setPermissionMode'
  | 'sessions.modes'
  | 'sessions.setBackground'
  | 'agents.list'
  | 'agents.transcript'
  | 'agents.stop'
  | 'tabs.open'
  | 'tabs.close'
  | 'tabs.activate'
  | 'tabs.reorder';

export function sessionHandlers(s: Services): Pick<HandlerMap, SessionChannels> {
  return {
    'sessions.list': ({ projectId }) => s.sessions.list(projectId),
    'sessions.create': ({ projectId, model, coordinator }) =>
      s.workspace.createSession(projectId, model, coordinator === true),
    'sessions.get': ({ sessionId }) => s.sessions.get(sessionId),
    'sessions.send': ({ sessionId, text }) => s.sessions.send(sessionId, text),
    'sessions.stop': ({ sessionId }) => s.sessions.stop(sessionId),
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
    'agents.list': ({ sessionId }) => s.sessions.agents(sessionId),
    'agents.transcript': ({ sessionId, agentId }) => s.sessions.agentTranscript(sessionId, agentId),
    'agents.stop': ({ sessionId, agentId }) => ({ stopped: s.sessions.stopAgent(sessionId, agentId) }),
    'tabs.open': ({ projectId, sessionId }) => s.workspace.openTab(projectId, sessionId),
    'tabs.close': ({ projectId, sessionId }) => s.workspace.closeTab(projectId, sessionId),
    'tabs.activate': ({ projectId, sessionId }) => s.workspace.activateTab(projectId, sessionId),
    'tabs.reorder': ({ projectId, order }) => s.workspace.reorderTabs(projectId, order),
  };
}
