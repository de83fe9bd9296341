import type { HandlerMap } from './router';
import type { Services } from './services';

type TeamChannels = 'teams.get' | 'teams.message' | 'teams.decidePlan';

/** A coordinator session's team: the person reads it, writes to a worker, decides a plan. */
export function teamHandlers(s: Services): Pick<HandlerMap, TeamChannels> {
  return {
    'teams.get': ({ sessionId }) => s.sessions.team(sessionId),
    'teams.message': ({ sessionId, to, text }) => s.sessions.teamMessage(sessionId, to, text),
    'teams.decidePlan': ({ sessionId, member, approve, feedback }) =>
      s.sessions.decidePlan(sessionId, member, approve, feedback),
  };
}
