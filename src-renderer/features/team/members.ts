import type { AgentState, AgentSummary } from '@shared/domain/agents';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import type { TeamMember, TeamView } from '@shared/domain/team';
import { totalTokens } from '@shared/domain/usage';
import { agentTree } from '../../stores/agents-slice';

/** One card of the team view: the session's main agent (the coordinator) or one of its agents. */
export interface Member {
  /** The card's key: the agent's id, the session's id for the main agent. */
  key: string;
  /** Whose transcript the card opens (the session's id for the main agent). */
  agentId: string;
  /** 0 for the coordinator, 1 for its workers and sub-agents, and so on. */
  depth: number;
  root: boolean;
  name: string;
  agentType: string;
  model: string;
  state: AgentState;
  /** The tool call in progress, in one line. */
  activity: string | null;
  /** For the main agent, what its session is doing, in words (it has no single call in progress). */
  doing: string | null;
  startedAt: string | null;
  endedAt: string | null;
  lastProgressAt: string | null;
  recentCalls: string[];
  /** Its own tokens. */
  tokens: number;
  costUsd: number;
  /** With everything it started. */
  totalCostUsd: number;
  verdict: 'PASS' | 'FAIL' | null;
  verdictReasons: string | null;
  /** Why it ended (`completed`, `aborted`, …), once it has. */
  endReason: string | null;
  /** A worker of the team: it can be messaged, and may have a plan waiting. */
  worker: TeamMember | null;
}

const SESSION_DOING: Record<SessionSummary['activity'], string> = {
  idle: 'idle',
  thinking: 'thinking…',
  streaming: 'writing…',
  tools: 'waiting for its tool calls',
  error: 'stopped with an error',
};

/**
 * The main agent's state from its session's summary. The session waits when any of its agents does;
 * the main agent itself waits only when none of them is the one asking.
 */
function sessionState(session: SessionSummary, agentWaiting: boolean): AgentState {
  if (session.waitingForUser && !agentWaiting) return 'waiting';
  if (session.activity === 'error') return 'failed';
  return isWorking(session.activity) ? 'working' : 'idle';
}

function fromAgent(agent: AgentSummary, depth: number, worker: TeamMember | null): Member {
  return {
    key: agent.id,
    agentId: agent.id,
    depth,
    root: false,
    name: worker?.name ?? agent.name,
    agentType: agent.agentType,
    model: agent.model,
    // A worker's lifecycle (idle between tasks) is the team's; a permission wait shows on its agent first.
    state: worker && agent.state !== 'waiting' ? worker.state : agent.state,
    activity: agent.activity,
    doing: null,
    startedAt: agent.startedAt,
    endedAt: agent.endedAt,
    lastProgressAt: agent.lastProgressAt,
    recentCalls: agent.recentCalls,
    tokens: totalTokens(agent.usage),
    costUsd: agent.costUsd,
    totalCostUsd: Math.max(agent.totalCostUsd, agent.costUsd),
    verdict: agent.verdict,
    verdictReasons: agent.verdictReasons,
    endReason: agent.endReason,
    worker,
  };
}

/** A worker the team lists whose agent card has not arrived yet (it has not started). */
function fromWorker(worker: TeamMember): Member {
  return {
    key: worker.agentId,
    agentId: worker.agentId,
    depth: 1,
    root: false,
    name: worker.name,
    agentType: worker.agentType,
    model: worker.model,
    state: worker.state,
    activity: null,
    doing: null,
    startedAt: null,
    endedAt: null,
    lastProgressAt: null,
    recentCalls: [],
    tokens: 0,
    costUsd: 0,
    totalCostUsd: 0,
    verdict: null,
    verdictReasons: null,
    endReason: null,
    worker,
  };
}

/**
 * The team view's cards in drawing order: the session's main agent (the coordinator) first, then its
 * workers and sub-agents as a tree under it. The session's usage and cost already include every
 * agent's, so the main agent's own share is the rest.
 */
export function teamMembers(
  session: SessionSummary,
  agents: Record<string, AgentSummary> | undefined,
  team: TeamView | undefined,
): Member[] {
  const workers = new Map((team?.members ?? []).map((w) => [w.agentId, w]));
  const tree = agentTree(agents, session.id);
  const all = Object.values(agents ?? {});
  const childrenTotal = all.filter((a) => a.parentId === session.id).reduce((n, a) => n + a.totalCostUsd, 0);
  const agentTokens = all.reduce((n, a) => n + totalTokens(a.usage), 0);
  const root: Member = {
    key: session.id,
    agentId: session.id,
    depth: 0,
    root: true,
    name: session.coordinator ? 'Coordinator' : 'Main agent',
    agentType: session.coordinator ? 'coordinator' : 'main',
    model: session.model,
    state: sessionState(
      session,
      all.some((a) => a.state === 'waiting'),
    ),
    activity: null,
    doing: SESSION_DOING[session.activity],
    startedAt: null,
    endedAt: null,
    lastProgressAt: null,
    recentCalls: [],
    tokens: Math.max(0, totalTokens(session.usage) - agentTokens),
    costUsd: Math.max(0, session.costUsd - childrenTotal),
    totalCostUsd: session.costUsd,
    verdict: null,
    verdictReasons: null,
    endReason: session.lastError,
    worker: null,
  };
  const members = [
    root,
    ...tree.map((n) => fromAgent(n.agent, n.depth + 1, workers.get(n.agent.id) ?? null)),
  ];
  const shown = new Set(members.map((m) => m.key));
  for (const w of workers.values()) if (!shown.has(w.agentId)) members.push(fromWorker(w));
  // An idle coordinator with workers at work is waiting for their reports, not doing nothing.
  if (root.state === 'idle' && members.some((m) => !m.root && isLive(m)))
    root.doing = session.coordinator ? 'waiting for its team' : 'waiting for its agents';
  return members;
}

/** Whether a member can be stopped now. */
export function isLive(m: Member): boolean {
  return m.state === 'working' || m.state === 'waiting';
}
