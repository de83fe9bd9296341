import { z } from 'zod';
import { TokenUsage } from './usage';

/** What a member of a session's agent tree is doing: the team view's badge. */
export const AgentState = z.enum(['idle', 'working', 'waiting', 'done', 'failed']);
export type AgentState = z.infer<typeof AgentState>;

/**
 * One sub-agent or worker of a session, as the team view and the transcript's agent card show it.
 * The session's main agent is not listed: it is the session itself (its id is the session's).
 */
export const AgentSummary = z.object({
  id: z.string(),
  sessionId: z.string(),
  /** Who started it: the session's id for the main agent's children, else another agent's id. */
  parentId: z.string(),
  /** The Agent call that started it; null for workers of a team. */
  toolUseId: z.string().nullable(),
  name: z.string(),
  agentType: z.string(),
  model: z.string(),
  state: AgentState,
  /** The tool call in progress, in one line ("Bash: npm test"), or null. */
  activity: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** When it last did anything (text, a tool call, a result): for stuck detection. */
  lastProgressAt: z.string(),
  /** Its last few tool calls, as `Tool(input)` keys: three equal ones in a row look stuck. */
  recentCalls: z.array(z.string()).max(3),
  usage: TokenUsage,
  /** Its own cost, and with the agents it started. */
  costUsd: z.number().nonnegative(),
  totalCostUsd: z.number().nonnegative(),
  toolUseCount: z.number().int().nonnegative(),
  verdict: z.enum(['PASS', 'FAIL']).nullable(),
  verdictReasons: z.string().nullable(),
  /** Why it ended, when it has (`completed`, `aborted`, `error`, …). */
  endReason: z.string().nullable(),
  /** A worker of the session's team (rather than a sub-agent of one call). */
  teammate: z.boolean(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;
