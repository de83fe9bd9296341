import { coordinatorWorkerHandler, type PermissionHandler } from '../permissions/handlers';
import type { Member } from './member';
import { currentMember } from './member-context';

/**
 * The session's permission handler as a team's workers use it: one for the whole team, which finds
 * who asks from the async context (not from a closure), names them on the request (the Inbox shows
 * the worker's name) and counts them as waiting while the question is open. Asks go through the
 * coordinator-worker order: hooks, then the classifier, then the person.
 */
export function teamPermissionHandler(o: {
  parent: PermissionHandler | null;
  member: (agentId: string) => Member | undefined;
  changed: () => void;
}): PermissionHandler | null {
  const { parent } = o;
  if (!parent) return null;
  const ask = coordinatorWorkerHandler({ askUser: (request, signal) => parent.resolve(request, signal) });
  return {
    resolve: async (request, signal) => {
      const who = currentMember();
      const m = who ? o.member(who.agentId) : undefined;
      if (!m) return parent.resolve(request, signal);
      m.asking++;
      o.changed();
      try {
        // A sub-agent of the worker is already named; the worker waits on it all the same.
        return await ask.resolve(
          { ...request, agent: request.agent ?? { id: m.agentId, name: m.name, agentType: m.agentType } },
          signal,
        );
      } finally {
        m.asking--;
        o.changed();
      }
    },
  };
}
