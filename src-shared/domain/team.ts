import { z } from 'zod';
import { AgentState } from './agents';

/** One message between members of a team (and the person), as the team view's timeline shows it. */
export const TeamMessage = z.object({
  id: z.string(),
  /** A worker's name, `coordinator`, or `person`. */
  from: z.string(),
  to: z.string(),
  text: z.string(),
  at: z.string(),
  /** A plain message, a worker's plan waiting for approval, or the answer to one. */
  kind: z.enum(['message', 'plan', 'plan_approved', 'plan_rejected']),
});
export type TeamMessage = z.infer<typeof TeamMessage>;

export const TeamMember = z.object({
  /** Unique in the team; how SendMessage and the person address it. */
  name: z.string(),
  /** Its agent in `agents.*` (cards, transcript, cost). */
  agentId: z.string(),
  agentType: z.string(),
  model: z.string(),
  state: AgentState,
  instructions: z.string(),
  /** Started in plan mode: it must have a plan approved before it changes anything. */
  planMode: z.boolean(),
  /** Its submitted plan awaiting a decision, if any. */
  pendingPlan: z.string().nullable(),
  /** Messages waiting in its mailbox, not yet read by it. */
  unread: z.number().int().nonnegative(),
});
export type TeamMember = z.infer<typeof TeamMember>;

/** A coordinator session's team. */
export const TeamView = z.object({
  sessionId: z.string(),
  members: z.array(TeamMember),
  /** The timeline, oldest first (the last few hundred). */
  messages: z.array(TeamMessage),
});
export type TeamView = z.infer<typeof TeamView>;
