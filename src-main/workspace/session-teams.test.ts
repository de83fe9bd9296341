import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '@shared/ipc/contract';
import type { SessionSummary } from '@shared/domain/session';
import type { TeamView } from '@shared/domain/team';
import { createCarapace, type Carapace } from '../compose';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { testCarapace } from '../test-support/carapace';
import { MAX_UNATTENDED_MAIL_TURNS, TeamManager } from '../harness/teams/team-manager';
import { text, toolUse } from '../test-support/engine';
import { COORDINATOR, createsWorker, delegatesToWorker, worker } from '../test-support/team-scenario';

type Recorded = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

const ctx = { transport: 'websocket' as const };

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Calls a channel through the router, as the window does (inputs and outputs validated). */
async function call(c: Carapace, channel: string, input: unknown): Promise<unknown> {
  const result = await c.router.dispatch(channel, input, ctx);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

describe('a coordinator session in the workspace', () => {
  it('runs its team, asks the person for a worker by name, wakes on mail, and comes back after a restart', async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { systemText: COORDINATOR, lastUserText: 'Team up' },
          reply: {
            content: [
              toolUse('TeamCreate', {
                workers: [
                  { name: 'alice', agent_type: 'general-purpose', instructions: 'Writes a.txt.' },
                  { name: 'bob', agent_type: 'general-purpose', instructions: 'Thinks slowly.' },
                ],
              }),
            ],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Created 2 workers' },
          reply: {
            content: [
              toolUse('SendMessage', { to: 'alice', message: 'TASK-A' }, 'sa'),
              toolUse('SendMessage', { to: 'bob', message: 'TASK-B' }, 'sb'),
            ],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Sent to alice' },
          reply: { content: [text('Waiting.')] },
        },
        {
          when: { systemText: worker('alice'), lastUserText: 'TASK-A' },
          reply: {
            content: [toolUse('Write', { file_path: 'a.txt', content: 'A\n' }, 'wa')],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: worker('alice'), lastUserText: 'File created' },
          reply: { content: [text('alice wrote a.txt')] },
        },
        // Bob's answer streams for seconds: the server restarts under it.
        {
          when: { systemText: worker('bob'), lastUserText: 'TASK-B' },
          reply: { content: [text(`bob ${'z'.repeat(200)}`)], chunkChars: 1, delayMs: 50 },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Continue' },
          reply: { content: [text('Carrying on.')] },
        },
        {
          when: { systemText: worker('bob'), lastUserText: 'PERSON-B' },
          reply: { content: [text('bob did what the person asked')] },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Messages from your team' },
          times: true,
          reply: { content: [text('Thanks, team.')] },
        },
      ],
    });
    const events: Recorded[] = [];
    t.carapace.hub.subscribe((event, payload) => events.push({ event, payload } as Recorded));
    const project = t.carapace.services.workspace.open(t.project).project;
    const session = (await call(t.carapace, 'sessions.create', {
      projectId: project.id,
      coordinator: true,
    })) as SessionSummary;
    expect(session.coordinator).toBe(true);

    // The person's permission answers: allow what a worker asks, noting who asked.
    const askedBy: string[] = [];
    t.carapace.hub.subscribe((event, payload) => {
      if (event !== 'permissions.requested') return;
      const { request } = payload as EventPayload<'permissions.requested'>;
      askedBy.push(request.agent?.name ?? '(main)');
      setTimeout(
        () => t.carapace.services.broker.respond({ requestId: request.id, decision: 'allow_once' }),
        10,
      );
    });

    await call(t.carapace, 'sessions.send', { sessionId: session.id, text: 'Team up and do it' });
    const team = () => t.carapace.services.sessions.team(session.id);
    const coordinatorAsked = (s: string) =>
      t.api.requests.some(
        (r) =>
          JSON.stringify(r.body.system).includes(COORDINATOR) && JSON.stringify(r.body.messages).includes(s),
      );
    // Alice asked (named), was allowed, finished; her report woke the idle coordinator.
    await until(() => coordinatorAsked('alice wrote a.txt'));
    expect(askedBy).toEqual(['alice']);
    expect(readFileSync(path.join(t.project, 'a.txt'), 'utf8')).toBe('A\n');
    await until(() => team().members.find((m) => m.name === 'alice')?.state === 'idle');

    // The person writes to bob while he is still answering: it waits in his mailbox.
    await until(() => t.api.requests.some((r) => JSON.stringify(r.body.messages).includes('TASK-B')));
    const note = await call(t.carapace, 'teams.message', {
      sessionId: session.id,
      to: 'bob',
      text: 'PERSON-B',
    });
    expect(note).toMatchObject({ from: 'person', to: 'bob', kind: 'message' });
    await expect(
      call(t.carapace, 'teams.message', { sessionId: session.id, to: 'nobody', text: 'x' }),
    ).rejects.toThrow(/no worker named "nobody"/);
    const live = (await call(t.carapace, 'teams.get', { sessionId: session.id })) as TeamView;
    expect(live.members.map((m) => [m.name, m.state, m.unread])).toEqual([
      ['alice', 'idle', 0],
      ['bob', 'working', 1],
    ]);
    // The window heard of it all: team changes, each message, and two worker cards.
    expect(events.some((e) => e.event === 'teams.changed')).toBe(true);
    expect(
      events.flatMap((e) =>
        e.event === 'teams.message' ? [`${e.payload.message.from}>${e.payload.message.to}`] : [],
      ),
    ).toContain('person>bob');
    const cards = t.carapace.services.sessions.agents(session.id);
    expect(cards.map((c) => [c.name, c.teammate, c.state])).toEqual([
      ['alice', true, 'idle'],
      ['bob', true, 'working'],
    ]);
    expect(cards[0]?.costUsd).toBeGreaterThan(0);
    const bobId = cards[1]?.id ?? '';

    // Restart mid-team.
    await t.carapace.shutdown();
    const again = createCarapace({
      env: t.env,
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: 't',
      homeDir: t.userHome,
    });
    try {
      again.services.workspace.open(t.project);
      const { session: reopened } = again.services.sessions.get(session.id);
      expect(reopened.coordinator).toBe(true);
      const back = again.services.sessions.team(session.id);
      expect(back.members.map((m) => [m.name, m.state, m.unread])).toEqual([
        ['alice', 'idle', 0],
        ['bob', 'idle', 1],
      ]);
      expect(back.messages.map((m) => `${m.from}>${m.to}`)).toEqual([
        'coordinator>alice',
        'coordinator>bob',
        'alice>coordinator',
        'person>bob',
      ]);
      // The cards come back with the team's states, and bob's transcript holds his interrupted answer.
      // (Cards read back from disk come in folder order.)
      const backCards = again.services.sessions.agents(session.id).map((c) => [c.name, c.state]);
      expect(backCards.sort()).toEqual([
        ['alice', 'idle'],
        ['bob', 'idle'],
      ]);
      const bobItems = again.services.sessions.agentTranscript(session.id, bobId);
      expect(JSON.stringify(bobItems)).toContain('TASK-B');
      expect(bobItems.some((i) => i.kind === 'message' && i.status === 'interrupted')).toBe(true);

      // The coordinator works again: bob takes up the person's message, with his conversation behind it.
      again.services.sessions.send(session.id, 'Continue');
      await until(() =>
        again.services.sessions.team(session.id).messages.some((m) => m.text.includes('bob did')),
      );
      const bobNext = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('PERSON-B'));
      expect(JSON.stringify(bobNext?.body.messages?.at(-1))).toContain(
        'Message from the person supervising the team:\\nPERSON-B',
      );
      expect(JSON.stringify(bobNext?.body.messages)).toContain('TASK-B');
      await until(() => coordinatorAsked('bob did what the person asked'));
      // His card shows his whole transcript, the earlier run's and the new.
      await until(() => again.services.sessions.team(session.id).members[1]?.state === 'idle');
      const whole = JSON.stringify(again.services.sessions.agentTranscript(session.id, bobId));
      expect(whole).toContain('TASK-B');
      expect(whole).toContain('bob did what the person asked');
    } finally {
      await again.shutdown();
    }
  });

  it('an ordinary session has an empty team and refuses team requests', async () => {
    const t = await testCarapace();
    const project = t.carapace.services.workspace.open(t.project).project;
    const session = t.carapace.services.workspace.createSession(project.id);
    expect(session.coordinator).toBe(false);
    expect(await call(t.carapace, 'teams.get', { sessionId: session.id })).toEqual({
      sessionId: session.id,
      members: [],
      messages: [],
    });
    await expect(
      call(t.carapace, 'teams.decidePlan', { sessionId: session.id, member: 'x', approve: true }),
    ).rejects.toThrow(/not a coordinator session/);
  });

  it('a stopped coordinator is not woken by its team until the person writes to it again', async () => {
    const t = await testCarapace({
      steps: [
        ...delegatesToWorker({
          prompt: 'Start',
          name: 'solo',
          task: 'SOLO',
          waiting: 'Waiting.',
          // Held until the test lets it go: with a fixed delay, a loaded machine could finish solo's
          // answer before the coordinator's turn was seen to end, and 'still working' failed.
          reply: { content: [text('solo finished')], hold: { afterEvents: 0, gate: 'solo' } },
        }),
        { when: { systemText: COORDINATOR, lastUserText: 'Go on' }, reply: { content: [text('Going on.')] } },
        {
          when: { systemText: COORDINATOR, lastUserText: 'solo finished' },
          reply: { content: [text('Noted.')] },
        },
      ],
    });
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id, undefined, true);
    sessions.send(session.id, 'Start');
    const coordinatorRequests = () =>
      t.api.requests.filter((r) => JSON.stringify(r.body.system).includes(COORDINATOR)).length;
    // The coordinator's turn is over while solo still works (his answer is held).
    await until(() => coordinatorRequests() === 3 && sessions.get(session.id).session.activity === 'idle');
    expect(sessions.team(session.id).members[0]?.state).toBe('working');
    sessions.stop(session.id);
    t.api.release('solo');
    await until(() => sessions.team(session.id).messages.some((m) => m.text === 'solo finished'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(coordinatorRequests()).toBe(3);
    expect(sessions.team(session.id).messages.at(-1)).toMatchObject({ from: 'solo', to: 'coordinator' });
    expect(sessions.get(session.id).session.activity).toBe('idle');

    sessions.send(session.id, 'Go on');
    await until(
      () =>
        coordinatorRequests() === 5 &&
        !sessions.get(session.id).session.activity.match(/thinking|streaming|tools/),
    );
    const last = t.api.requests.at(-1);
    expect(JSON.stringify(last?.body.messages?.at(-1))).toContain('Messages from your team');
  });

  it('an archived or deleted coordinator session lets go of its team (its workers end)', async () => {
    const t = await testCarapace({
      steps: [
        { ...createsWorker('Start', 'solo'), times: true },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Created a worker' },
          times: true,
          reply: { content: [text('Ready.')] },
        },
      ],
    });
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const closed = vi.spyOn(TeamManager.prototype, 'close');
    for (const channel of ['sessions.archive', 'sessions.delete'] as const) {
      const session = workspace.createSession(project.id, undefined, true);
      sessions.send(session.id, 'Start');
      await until(
        () =>
          sessions.team(session.id).members.length === 1 &&
          !sessions.get(session.id).session.activity.match(/thinking|streaming|tools/),
      );
      // Its worker is idle, not ended: its task is still listed as running.
      expect(sessions.tasks(session.id)).toMatchObject([{ kind: 'in_process_teammate', status: 'running' }]);
      closed.mockClear();
      await call(t.carapace, channel, { projectId: project.id, sessionId: session.id });
      expect(closed).toHaveBeenCalledTimes(1);
    }
  });

  it(`a coordinator and a worker writing to each other stop after ${MAX_UNATTENDED_MAIL_TURNS} turns nobody asked for`, async () => {
    const t = await testCarapace({
      steps: [
        createsWorker('Start', 'echo'),
        // Every message from the team is answered with another message to it: a loop without end.
        {
          when: { systemText: COORDINATOR, lastUserPattern: 'Created a worker|Messages from your team' },
          times: true,
          reply: {
            content: [toolUse('SendMessage', { to: 'echo', message: 'PING' })],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Sent to echo' },
          times: true,
          reply: { content: [text('Waiting.')] },
        },
        {
          when: { systemText: worker('echo'), lastUserPattern: 'PING' },
          times: true,
          reply: { content: [text('PONG')] },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Enough' },
          reply: { content: [text('Stopping.')] },
        },
      ],
    });
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id, undefined, true);
    sessions.send(session.id, 'Start');
    const paused = () =>
      sessions.get(session.id).transcript.some((i) => i.kind === 'notice' && i.code === 'team_paused');
    await until(paused, 60_000);
    const workerTurns = () =>
      t.api.requests.filter((r) => JSON.stringify(r.body.system).includes(worker('echo'))).length;
    const turns = workerTurns();
    expect(turns).toBeGreaterThanOrEqual(MAX_UNATTENDED_MAIL_TURNS);
    expect(turns).toBeLessThanOrEqual(MAX_UNATTENDED_MAIL_TURNS + 2);
    // Quiet now: the last PONG waits unread for the person.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(workerTurns()).toBe(turns);
    expect(sessions.get(session.id).session.activity).toBe('idle');
    // The person writes: the coordinator goes on, with the waiting mail.
    sessions.send(session.id, 'Enough');
    await until(() => JSON.stringify(t.api.requests.at(-1)?.body.messages?.at(-1)).includes('PONG'));
  }, 90_000);
});
