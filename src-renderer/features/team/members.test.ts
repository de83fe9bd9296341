import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '@shared/domain/session';
import type { TeamMember } from '@shared/domain/team';
import { ZERO_USAGE } from '@shared/domain/usage';
import { agentSummary } from '../../test-support/agent-summary';
import { teamMembers } from './members';

const session: SessionSummary = {
  id: 's',
  projectId: 'p',
  title: 'Ship it',
  model: 'claude-opus-4-1',
  permissionMode: 'default',
  activity: 'tools',
  waitingForUser: false,
  createdAt: '',
  updatedAt: '',
  usage: { ...ZERO_USAGE, inputTokens: 1000, outputTokens: 100 },
  costUsd: 0.5,
  costKind: 'priced',
  messageCount: 1,
  lastError: null,
  coordinator: true,
  background: false,
};

const worker = (over: Partial<TeamMember>): TeamMember => ({
  name: 'w',
  agentId: 'w',
  agentType: 'general-purpose',
  model: 'claude-sonnet-4-5',
  state: 'working',
  instructions: '',
  planMode: false,
  pendingPlan: null,
  unread: 0,
  ...over,
});

describe('team members', () => {
  it('puts the coordinator first, then workers and their sub-agents as a tree', () => {
    const members = teamMembers(
      session,
      {
        w1: agentSummary({ id: 'w1', name: 'w1', teammate: true, startedAt: '2025-01-01T00:00:01Z' }),
        w2: agentSummary({ id: 'w2', name: 'w2', teammate: true, startedAt: '2025-01-01T00:00:02Z' }),
        sub: agentSummary({
          id: 'sub',
          parentId: 'w1',
          name: 'Explore the code',
          startedAt: '2025-01-01T00:00:03Z',
        }),
      },
      { sessionId: 's', members: [worker({ name: 'backend', agentId: 'w1' })], messages: [] },
    );
    expect(members.map((m) => `${m.name}@${m.depth}`)).toEqual([
      'Coordinator@0',
      'backend@1',
      'Explore the code@2',
      'w2@1',
    ]);
    expect(members[0]).toMatchObject({
      root: true,
      agentId: 's',
      state: 'working',
      model: 'claude-opus-4-1',
    });
    // Named by the team; the one worker listed is addressable, the others are not.
    expect(members[1]?.worker?.name).toBe('backend');
    expect(members[3]?.worker).toBeNull();
  });

  it("gives the coordinator its own share of the session's rolled-up cost and tokens", () => {
    const members = teamMembers(
      session,
      {
        w1: agentSummary({
          id: 'w1',
          costUsd: 0.1,
          totalCostUsd: 0.15,
          usage: { ...ZERO_USAGE, inputTokens: 300 },
        }),
        sub: agentSummary({
          id: 'sub',
          parentId: 'w1',
          costUsd: 0.05,
          totalCostUsd: 0.05,
          usage: { ...ZERO_USAGE, inputTokens: 200 },
        }),
      },
      undefined,
    );
    const [root, w1] = members;
    expect(root?.totalCostUsd).toBe(0.5);
    expect(root?.costUsd).toBeCloseTo(0.35, 12);
    expect(root?.tokens).toBe(1100 - 500);
    expect(w1).toMatchObject({ costUsd: 0.1, totalCostUsd: 0.15, tokens: 300 });
  });

  it('says an idle coordinator waits for its team while a worker works', () => {
    const idle = { ...session, activity: 'idle' as const };
    const team = { sessionId: 's', members: [worker({ agentId: 'w1', state: 'working' })], messages: [] };
    expect(teamMembers(idle, { w1: agentSummary({ id: 'w1' }) }, team)[0]?.doing).toBe(
      'waiting for its team',
    );
    const done = { ...team, members: [worker({ agentId: 'w1', state: 'done' })] };
    expect(teamMembers(idle, { w1: agentSummary({ id: 'w1' }) }, done)[0]?.doing).toBe('idle');
  });

  it('lists a worker the team has named before its agent has started', () => {
    const members = teamMembers(
      session,
      {},
      {
        sessionId: 's',
        members: [worker({ name: 'docs', agentId: 'w9', state: 'idle' })],
        messages: [],
      },
    );
    expect(members.map((m) => [m.name, m.state, m.depth])).toEqual([
      ['Coordinator', 'working', 0],
      ['docs', 'idle', 1],
    ]);
  });

  it("shows a worker's permission wait even when the team still says working", () => {
    const [, w] = teamMembers(
      { ...session, waitingForUser: true },
      { w1: agentSummary({ id: 'w1', state: 'waiting' }) },
      { sessionId: 's', members: [worker({ agentId: 'w1', state: 'working' })], messages: [] },
    );
    expect(w?.state).toBe('waiting');
  });

  it('shows the main agent waiting only when it is the one asking, not one of its agents', () => {
    const waiting = { ...session, waitingForUser: true };
    const [asking] = teamMembers(waiting, { w1: agentSummary({ id: 'w1', state: 'working' }) }, undefined);
    expect(asking?.state).toBe('waiting');
    const [notAsking] = teamMembers(waiting, { w1: agentSummary({ id: 'w1', state: 'waiting' }) }, undefined);
    expect(notAsking?.state).toBe('working');
  });
});
