import type { AgentSummary } from '@shared/domain/agents';
import { ZERO_USAGE } from '@shared/domain/usage';

/** An agent card as the main process sends it, with the fields a test cares about set. */
export function agentSummary(over: Partial<AgentSummary>): AgentSummary {
  return {
    id: 'a',
    sessionId: 's',
    parentId: 's',
    toolUseId: null,
    name: 'a',
    agentType: 'general-purpose',
    model: 'claude-sonnet-4-5',
    state: 'working',
    activity: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    endedAt: null,
    lastProgressAt: '2025-01-01T00:00:00.000Z',
    recentCalls: [],
    usage: ZERO_USAGE,
    costUsd: 0,
    totalCostUsd: 0,
    toolUseCount: 0,
    verdict: null,
    verdictReasons: null,
    endReason: null,
    teammate: false,
    ...over,
  };
}
