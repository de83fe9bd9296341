import { z } from 'zod';
import { SessionId } from '../../domain/session';
import { TeamMessage, TeamView } from '../../domain/team';
import { channel, SessionRef } from './common';

/** A coordinator session's team: its workers, their mailboxes, plan approval. */

const MemberName = z.string().trim().min(1).max(64);

export const requests = {
  /** The team of a session; an empty team for sessions that have none. */
  'teams.get': channel(SessionRef, TeamView),
  /** The person writes into a worker's mailbox; the worker reads it at its next turn. */
  'teams.message': channel(
    z.strictObject({ sessionId: SessionId, to: MemberName, text: z.string().trim().min(1).max(100_000) }),
    TeamMessage,
  ),
  /** Approves or rejects a worker's submitted plan, with feedback. */
  'teams.decidePlan': channel(
    z.strictObject({
      sessionId: SessionId,
      member: MemberName,
      approve: z.boolean(),
      feedback: z.string().max(20_000).optional(),
    }),
    TeamMessage,
  ),
} as const;

export const events = {
  /** The team changed: a member added, removed, changed state, or a plan arrived. */
  'teams.changed': z.object({ team: TeamView }),
  /** A message was delivered to a mailbox (or sent by a worker). */
  'teams.message': z.object({ sessionId: z.string(), message: TeamMessage }),
} as const;
