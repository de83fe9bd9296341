import type { HandlerMap } from './router';
import type { Services } from './services';

type TerminalChannels =
  | 'terminal.open'
  | 'terminal.find'
  | 'terminal.input'
  | 'terminal.resize'
  | 'terminal.ack'
  | 'terminal.detach'
  | 'terminal.close';

const ok = { ok: true as const };

/** The per-session terminal panel: the user's own shell, in the session's project folder. */
export function terminalHandlers(s: Services): Pick<HandlerMap, TerminalChannels> {
  return {
    'terminal.open': ({ sessionId, cols, rows }) =>
      s.terminals.open(sessionId, s.sessions.workRootOf(sessionId), cols, rows),
    'terminal.find': ({ sessionId }) => ({ terminalId: s.terminals.find(sessionId) }),
    'terminal.input': ({ terminalId, data }) => {
      s.terminals.input(terminalId, data);
      return ok;
    },
    'terminal.resize': ({ terminalId, cols, rows }) => {
      s.terminals.resize(terminalId, cols, rows);
      return ok;
    },
    'terminal.ack': ({ terminalId, chars }) => {
      s.terminals.ack(terminalId, chars);
      return ok;
    },
    'terminal.detach': ({ terminalId }) => {
      s.terminals.detach(terminalId);
      return ok;
    },
    'terminal.close': ({ terminalId }) => ({ closed: s.terminals.close(terminalId) }),
  };
}
