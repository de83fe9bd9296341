import type { StateCreator } from 'zustand';
import type { AgentSummary } from '@shared/domain/agents';

export interface AgentsSlice {
  /**
   * Sub-agents and workers by session, then by agent id. Each names its parent (`parentId`: the
   * session's id for the main agent's children), which makes the tree the team view draws.
   */
  agents: Record<string, Record<string, AgentSummary>>;
  /** Sessions whose whole list was fetched (`agents.list`): an agent unknown there started later. */
  agentsListed: Record<string, true>;
  /** Merges a fetched list (a card announced meanwhile by an event is kept, never dropped). */
  setAgents(sessionId: string, agents: readonly AgentSummary[]): void;
  upsertAgent(agent: AgentSummary): void;
}

export const createAgentsSlice: StateCreator<AgentsSlice> = (set) => ({
  agents: {},
  agentsListed: {},
  setAgents: (sessionId, list) =>
    set((s) => ({
      agents: {
        ...s.agents,
        [sessionId]: { ...s.agents[sessionId], ...Object.fromEntries(list.map((a) => [a.id, a])) },
      },
      agentsListed: { ...s.agentsListed, [sessionId]: true },
    })),
  upsertAgent: (agent) =>
    set((s) => ({
      agents: { ...s.agents, [agent.sessionId]: { ...s.agents[agent.sessionId], [agent.id]: agent } },
    })),
});

/** Whether an agent is still at its very start: no call made, no token used (its first event). */
export function justStarted(agent: AgentSummary): boolean {
  return (
    agent.state === 'working' &&
    agent.toolUseCount === 0 &&
    agent.usage.inputTokens === 0 &&
    agent.usage.outputTokens === 0
  );
}

/** One member of a session's agent tree, in drawing order, with its depth (0 = the session's children). */
export interface TreeNode {
  agent: AgentSummary;
  depth: number;
}

/**
 * A session's agents as a tree, depth first, children in start order. An agent whose parent is not
 * known (its parent's card not loaded) hangs at the top rather than disappearing.
 */
export function agentTree(agents: Record<string, AgentSummary> | undefined, sessionId: string): TreeNode[] {
  const list = Object.values(agents ?? {}).sort(
    (a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id),
  );
  const known = new Set(list.map((a) => a.id));
  const children = new Map<string, AgentSummary[]>();
  for (const a of list) {
    const parent = a.parentId !== sessionId && known.has(a.parentId) ? a.parentId : sessionId;
    children.set(parent, [...(children.get(parent) ?? []), a]);
  }
  const out: TreeNode[] = [];
  const seen = new Set<string>();
  const walk = (parent: string, depth: number) => {
    for (const agent of children.get(parent) ?? []) {
      // A parent link loop (bad data) must not hang the window.
      if (seen.has(agent.id)) continue;
      seen.add(agent.id);
      out.push({ agent, depth });
      walk(agent.id, depth + 1);
    }
  };
  walk(sessionId, 0);
  // Agents in a parent loop (bad data) reach no root: shown at the top, never lost.
  for (const a of list)
    if (!seen.has(a.id)) {
      seen.add(a.id);
      out.push({ agent: a, depth: 0 });
      walk(a.id, 1);
    }
  return out;
}
