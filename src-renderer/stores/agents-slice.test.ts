import { describe, expect, it } from 'vitest';
import { ZERO_USAGE } from '@shared/domain/usage';
import { agentTree, justStarted } from './agents-slice';
import { createAppStore } from './store';
import { agentSummary } from '../test-support/agent-summary';

const agent = agentSummary;

describe('agents slice', () => {
  it('keeps agents by session; a fetched list merges with cards announced meanwhile', () => {
    const store = createAppStore();
    store.getState().upsertAgent(agent({ id: 'late', startedAt: '2025-01-01T00:00:05.000Z' }));
    store.getState().setAgents('s', [agent({ id: 'early', state: 'done' })]);
    store.getState().upsertAgent(agent({ id: 'other', sessionId: 't', parentId: 't' }));
    expect(Object.keys(store.getState().agents['s'] ?? {}).sort()).toEqual(['early', 'late']);
    expect(store.getState().agentsListed).toEqual({ s: true });
    expect(Object.keys(store.getState().agents['t'] ?? {})).toEqual(['other']);
  });

  it('knows an agent at its very start from one that has been at work', () => {
    expect(justStarted(agent({}))).toBe(true);
    expect(justStarted(agent({ toolUseCount: 1 }))).toBe(false);
    expect(justStarted(agent({ usage: { ...ZERO_USAGE, inputTokens: 10 } }))).toBe(false);
    expect(justStarted(agent({ state: 'done' }))).toBe(false);
  });
});

describe('agent tree', () => {
  const at = (s: number) => `2025-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;

  it('draws workers under the session and their sub-agents under them, depth first in start order', () => {
    const tree = agentTree(
      {
        w2: agent({ id: 'w2', startedAt: at(2) }),
        w1: agent({ id: 'w1', startedAt: at(1) }),
        c1: agent({ id: 'c1', parentId: 'w1', startedAt: at(3) }),
        c2: agent({ id: 'c2', parentId: 'c1', startedAt: at(4) }),
      },
      's',
    );
    expect(tree.map((n) => `${n.agent.id}@${n.depth}`)).toEqual(['w1@0', 'c1@1', 'c2@2', 'w2@0']);
  });

  it('keeps an agent whose parent is unknown, or caught in a parent loop, at the top', () => {
    const tree = agentTree(
      {
        orphan: agent({ id: 'orphan', parentId: 'gone' }),
        x: agent({ id: 'x', parentId: 'y', startedAt: at(1) }),
        y: agent({ id: 'y', parentId: 'x', startedAt: at(2) }),
      },
      's',
    );
    expect(tree.map((n) => `${n.agent.id}@${n.depth}`)).toEqual(['orphan@0', 'x@0', 'y@1']);
  });
});
