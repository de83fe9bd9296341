import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ToolResultBlock } from '@shared/domain/messages';
import { testRuntime } from '../../test-support/runtime';
import { text, toolUse } from '../../test-support/engine';
import { COORDINATOR } from '../../test-support/team-scenario';

const PLANNER = '# Team member: planner';

async function team(steps: Parameters<typeof testRuntime>[0]['steps'], waitForTeam = false) {
  // acceptEdits: once its plan is approved, the worker's edits inside the project need no person.
  const t = await testRuntime(
    { steps },
    { mode: 'acceptEdits', overrides: { coordinator: { waitForTeam } } },
  );
  onTestFinished(() => t.runtime.team?.close());
  if (!t.runtime.team) throw new Error('not a coordinator');
  return { ...t, team: t.runtime.team };
}

const createPlanner = toolUse(
  'TeamCreate',
  {
    workers: [
      { name: 'planner', agent_type: 'general-purpose', instructions: 'Change p.txt.', plan_mode: true },
    ],
  },
  'create',
);

function plannerResults(
  requests: readonly { body: { system?: unknown; messages?: { content: unknown }[] } }[],
) {
  return requests
    .filter((r) => JSON.stringify(r.body.system).includes(PLANNER))
    .flatMap((r) => {
      const last = r.body.messages?.at(-1)?.content;
      return Array.isArray(last)
        ? (last as { type: string }[]).filter((b): b is ToolResultBlock => b.type === 'tool_result')
        : [];
    });
}

describe('plan approval', () => {
  it('a worker in plan mode cannot write, sends a plan, is rejected with feedback, then approved and carries it out', async () => {
    const t = await team([
      {
        when: { systemText: COORDINATOR, lastUserText: 'Plan it' },
        reply: { content: [createPlanner], stop_reason: 'tool_use' },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Created a worker' },
        reply: {
          content: [toolUse('SendMessage', { to: 'planner', message: 'TASK-P', wait: true }, 's1')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'TASK-P' },
        reply: {
          content: [toolUse('Write', { file_path: 'p.txt', content: 'early\n' }, 'w0')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'plan mode' },
        reply: {
          content: [toolUse('SubmitPlan', { plan: 'PLAN-V1: write p.txt' }, 'p1')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'sent for approval' },
        reply: { content: [text('Submitted my plan.')] },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'PLAN-V1' },
        reply: {
          content: [
            toolUse(
              'SendMessage',
              { to: 'planner', message: 'Add a test too', plan: 'reject', wait: true },
              's2',
            ),
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'rejected your plan' },
        reply: {
          content: [toolUse('SubmitPlan', { plan: 'PLAN-V2: write p.txt and a test' }, 'p2')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'sent for approval' },
        reply: { content: [text('Resubmitted.')] },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'PLAN-V2' },
        reply: {
          content: [
            toolUse('SendMessage', { to: 'planner', message: '', plan: 'approve', wait: true }, 's3'),
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'approved your plan' },
        reply: {
          content: [toolUse('Write', { file_path: 'p.txt', content: 'planned\n' }, 'w1')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'File created' },
        reply: { content: [text('Implemented p.txt')] },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Implemented p.txt' },
        reply: { content: [text('done')] },
      },
    ]);
    const { result } = await t.run('Plan it first');
    expect(result.text).toBe('done');

    // It was offered SubmitPlan, and its Write before approval was refused by plan mode.
    const first = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('TASK-P'));
    expect((first?.body.tools ?? []).map((x) => x.name)).toContain('SubmitPlan');
    const [early] = plannerResults(t.api.requests);
    expect(early?.tool_use_id).toBe('w0');
    expect(early?.is_error).toBe(true);
    expect(JSON.stringify(early?.content)).toContain('plan mode');
    // The feedback reached it, and after approval its Write went through.
    const rejected = t.api.requests.find((r) =>
      JSON.stringify(r.body.messages?.at(-1)).includes('rejected your plan'),
    );
    expect(JSON.stringify(rejected?.body.messages?.at(-1))).toContain('Feedback: Add a test too');
    expect(readFileSync(path.join(t.project, 'p.txt'), 'utf8')).toBe('planned\n');

    const view = t.team.view();
    expect(view.messages.map((m) => `${m.from}>${m.to}:${m.kind}`)).toEqual([
      'coordinator>planner:message',
      'planner>coordinator:plan',
      'coordinator>planner:plan_rejected',
      'planner>coordinator:plan',
      'coordinator>planner:plan_approved',
      'planner>coordinator:message',
    ]);
    expect(view.members[0]).toMatchObject({
      name: 'planner',
      planMode: true,
      pendingPlan: null,
      state: 'idle',
    });
  });

  it('the person decides a plan: the worker goes ahead, the coordinator is told, and a second decision is refused', async () => {
    const t = await team([
      {
        when: { systemText: COORDINATOR, lastUserText: 'Plan it' },
        reply: { content: [createPlanner], stop_reason: 'tool_use' },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Created a worker' },
        reply: {
          content: [toolUse('SendMessage', { to: 'planner', message: 'TASK-P' }, 's1')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Sent to planner' },
        reply: { content: [text('Waiting.')] },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'TASK-P' },
        reply: { content: [toolUse('SubmitPlan', { plan: 'PLAN-P' }, 'p1')], stop_reason: 'tool_use' },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'sent for approval' },
        reply: { content: [text('Submitted.')] },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'approved your plan' },
        reply: {
          content: [toolUse('Write', { file_path: 'q.txt', content: 'q\n' }, 'w1')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: PLANNER, lastUserText: 'File created' },
        reply: { content: [text('Wrote q.txt')] },
      },
    ]);
    await t.run('Plan it');
    // Once its turn is over, a worker with a plan out waits for a decision.
    while (t.team.busy() || t.team.view().members[0]?.pendingPlan === null) await t.team.nextChange();
    expect(t.team.view().members[0]).toMatchObject({ pendingPlan: 'PLAN-P', state: 'waiting' });

    const decision = t.team.decidePlan('planner', true, 'Looks right', 'person');
    expect(decision).toMatchObject({
      from: 'person',
      to: 'planner',
      kind: 'plan_approved',
      text: 'Looks right',
    });
    expect(() => t.team.decidePlan('planner', false, 'again', 'person')).toThrow(/no plan waiting/);
    while (!existsSync(path.join(t.project, 'q.txt')) || t.team.busy()) await t.team.nextChange();

    // The coordinator's mail: the plan is settled (not asked again), the person's decision and the result are new.
    const mail = t.team.takeCoordinatorMail() ?? '';
    expect(mail).not.toContain('PLAN-P');
    expect(mail).toContain("I approved planner's plan. Feedback: Looks right");
    expect(mail).toContain('Wrote q.txt');
  });
});
