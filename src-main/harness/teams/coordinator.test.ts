import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ToolResultBlock } from '@shared/domain/messages';
import type { AgentEvent } from '../events/agent-event';
import type { PermissionHandler, PermissionRequest } from '../permissions/handlers';
import { readTranscript } from '../session/transcript-file';
import { testRuntime } from '../../test-support/runtime';
import { text, toolUse } from '../../test-support/engine';
import { currentMember } from './member-context';
import type { RuntimeSetup } from '../runtime/types';
import { COORDINATOR, worker } from '../../test-support/team-scenario';

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });

/** A reply streamed slowly enough (≥ 300 ms) that overlapping requests can be told from serial ones. */
const slow = (said: string) => ({
  content: [text(`${said} ${'x'.repeat(200)}`)],
  chunkChars: 10,
  delayMs: 15,
});

const create = (workers: Record<string, unknown>[], id = 'create') => toolUse('TeamCreate', { workers }, id);
const send = (to: string, message: string, extra: Record<string, unknown> = {}, id = `send-${to}`) =>
  toolUse('SendMessage', { to, message, ...extra }, id);

function results(events: readonly AgentEvent[], agentId: string): ToolResultBlock[] {
  return events.flatMap((e) => (e.type === 'tool_result' && e.agentId === agentId ? [e.block] : []));
}
const resultText = (b: ToolResultBlock | undefined) =>
  typeof b?.content === 'string' ? b.content : JSON.stringify(b?.content);

/** A person who approves everything, noting who asked (by the request, and by the async context). */
function approver() {
  const asked: { request: PermissionRequest; member: string | undefined }[] = [];
  const handler: PermissionHandler = {
    resolve: (request) => {
      asked.push({ request, member: currentMember()?.name });
      return Promise.resolve({ behavior: 'allow', by: 'user' });
    },
  };
  return { asked, handler };
}

async function coordinator(
  steps: Parameters<typeof testRuntime>[0]['steps'],
  o: {
    mode?: 'default' | 'acceptEdits';
    handler?: PermissionHandler;
    overrides?: Partial<RuntimeSetup>;
  } = {},
) {
  const t = await testRuntime(
    { steps },
    {
      mode: o.mode ?? 'default',
      handler: o.handler ?? null,
      overrides: { ...o.overrides, coordinator: { ...o.overrides?.coordinator } },
    },
  );
  onTestFinished(() => t.runtime.team?.close());
  const team = t.runtime.team;
  if (!team) throw new Error('not a coordinator');
  return { ...t, team };
}

describe('coordinator mode', () => {
  it('offers the coordinator only the four team tools', async () => {
    const t = await coordinator([{ when: { systemText: COORDINATOR }, reply: { content: [text('ok')] } }]);
    await t.run('hello');
    const tools = (t.api.requests[0]?.body.tools ?? []).map((x) => x.name);
    expect(tools).toEqual(['TeamCreate', 'TeamDelete', 'SendMessage', 'SyntheticOutput']);
    // The agent types are listed for it to choose from.
    const create = t.api.requests[0]?.body.tools?.find((x) => x.name === 'TeamCreate') as
      { description?: string } | undefined;
    expect(create?.description).toContain('- general-purpose:');
  });

  it('runs three workers at once, one asking permission, and collects their results', async () => {
    const { asked, handler } = approver();
    const nested: AgentEvent[] = [];
    const t = await coordinator(
      [
        {
          when: { systemText: COORDINATOR, lastUserText: 'Split the work' },
          reply: {
            content: [
              create([
                { name: 'alice', agent_type: 'general-purpose', instructions: 'You own part A.' },
                { name: 'bob', agent_type: 'general-purpose', instructions: 'You own part B.' },
                { name: 'carol', agent_type: 'general-purpose', instructions: 'You own part C.' },
              ]),
            ],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Created 3 workers' },
          reply: {
            content: [
              send('alice', 'TASK-A', { wait: true }),
              send('bob', 'TASK-B', { wait: true }),
              send('carol', 'TASK-C', { wait: true }),
            ],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { systemText: worker('alice'), lastUserText: 'TASK-A' },
          reply: { ...slow('alice done'), hold: { afterEvents: 0, gate: 'team' }, usage: usage(1000, 50) },
        },
        {
          when: { systemText: worker('bob'), lastUserText: 'TASK-B' },
          reply: {
            content: [toolUse('Write', { file_path: 'b.txt', content: 'part B\n' }, 'bob-write')],
            stop_reason: 'tool_use',
            usage: usage(2000, 50),
          },
        },
        {
          when: { systemText: worker('bob'), lastUserText: 'File created' },
          reply: { content: [text('bob done: wrote b.txt')], usage: usage(500, 20) },
        },
        {
          when: { systemText: worker('carol'), lastUserText: 'TASK-C' },
          reply: { ...slow('carol done'), hold: { afterEvents: 0, gate: 'team' }, usage: usage(3000, 50) },
        },
        {
          when: {
            systemText: COORDINATOR,
            lastUserPattern: 'alice done[\\s\\S]*bob done[\\s\\S]*carol done',
          },
          reply: {
            content: [toolUse('TeamDelete', { workers: ['*'] }, 'delete')],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Ended:' },
          reply: { content: [text('All three parts are done.')], usage: usage(100, 10) },
        },
      ],
      { handler, overrides: { onAgentEvent: (e) => nested.push(e) } },
    );
    const running = t.run('Split the work into three parts');
    // They work at the same time: all three ask the server while alice's and carol's replies are held
    // (one after the other, bob would never ask before alice's reply ended).
    const reqOf = (name: string) =>
      t.api.requests.filter((r) => JSON.stringify(r.body.system).includes(worker(name)));
    await expect.poll(() => ['alice', 'bob', 'carol'].every((n) => reqOf(n).length > 0)).toBe(true);
    t.api.release('team');
    const { events, result } = await running;
    expect(result.terminal.reason).toBe('completed');
    expect(result.text).toBe('All three parts are done.');

    // Each worker's request carries its own role and task, never the coordinator's conversation.
    for (const name of ['alice', 'bob', 'carol']) {
      const [first] = reqOf(name);
      expect(JSON.stringify(first?.body.messages)).not.toContain('Split the work');
      expect(JSON.stringify(first?.body.system)).toContain(`You own part ${name[0]?.toUpperCase()}`);
      expect((first?.body.tools ?? []).map((x) => x.name)).toContain('Write');
    }
    // Bob asked, named as himself: on the request, and in the async context the request ran in.
    expect(asked).toHaveLength(1);
    expect(asked[0]?.request.toolName).toBe('Write');
    expect(asked[0]?.request.agent).toMatchObject({ name: 'bob', agentType: 'general-purpose' });
    expect(asked[0]?.member).toBe('bob');
    expect(readFileSync(path.join(t.project, 'b.txt'), 'utf8')).toBe('part B\n');

    // The results came back to the coordinator as the SendMessage results.
    const sends = results(events, t.runtime.agentId).filter((b) => b.tool_use_id.startsWith('send-'));
    expect(sends.map((b) => resultText(b).split('\n\n')[1]?.split(':')[0])).toEqual([
      'From alice',
      'From bob',
      'From carol',
    ]);
    expect(resultText(sends[1])).toContain('bob done: wrote b.txt');

    // TeamDelete ended them all; their cards got a start and an end.
    const view = t.team.view();
    expect(view.members.map((m) => [m.name, m.state])).toEqual([
      ['alice', 'done'],
      ['bob', 'done'],
      ['carol', 'done'],
    ]);
    // Each worker is a task of the session (in_process_teammate), ended with its reports as output.
    const tasks = t.runtime.engine.tasks.list().filter((x) => x.kind === 'in_process_teammate');
    expect(tasks.map((x) => [x.description, x.status])).toEqual([
      ['alice (general-purpose)', 'completed'],
      ['bob (general-purpose)', 'completed'],
      ['carol (general-purpose)', 'completed'],
    ]);
    expect(tasks[1]?.outputTail).toContain('bob done: wrote b.txt');
    // Their events reach the session beside the coordinator's turn (cards, transcripts, cost).
    const started = nested.flatMap((e) => (e.type === 'agent_started' ? [e.info] : []));
    expect(started.map((i) => [i.name, i.toolUseId, i.parentId])).toEqual([
      ['alice', null, t.runtime.agentId],
      ['bob', null, t.runtime.agentId],
      ['carol', null, t.runtime.agentId],
    ]);
    expect(nested.filter((e) => e.type === 'agent_ended').map((e) => e.agentId)).toEqual(
      started.map((i) => i.agentId),
    );
    expect(
      started.every((i) => i.transcriptFile.startsWith(path.join(t.runtime.sessionDir, 'subagents'))),
    ).toBe(true);

    // Cost: the session total per model is the coordinator's own plus every worker's.
    const total = t.runtime.engine.cost.modelUsage()['claude-sonnet-4-5'];
    const own = t.runtime.engine.ownCost.modelUsage()['claude-sonnet-4-5'];
    const workers = started.map((i) => {
      const line = readTranscript(i.transcriptFile)
        .lines.filter((l) => l.type === 'cost')
        .at(-1);
      if (line?.type !== 'cost') throw new Error('no cost line');
      return line.snapshot.modelUsage['claude-sonnet-4-5'];
    });
    expect(own?.inputTokens).toBe(400);
    expect(total?.inputTokens).toBe(400 + 1000 + 2000 + 500 + 3000);
    expect(total?.costMicros).toBe(
      (own?.costMicros ?? 0) + workers.reduce((n, w) => n + (w?.costMicros ?? 0), 0),
    );

    // The timeline holds the tasks and the replies, in order.
    expect(view.messages.map((m) => `${m.from}>${m.to}`)).toEqual([
      'coordinator>alice',
      'coordinator>bob',
      'coordinator>carol',
      ...view.messages.slice(3).map((m) => `${m.from}>coordinator`),
    ]);
    expect(view.messages).toHaveLength(6);
  });

  it('wakes the coordinator with its team’s mail, and the person’s message reaches the worker’s next request', async () => {
    let told = false;
    const t = await coordinator(
      [
        {
          when: { systemText: COORDINATOR, lastUserText: 'Start' },
          reply: {
            content: [create([{ name: 'alice', agent_type: 'general-purpose', instructions: 'Docs.' }])],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Created a worker' },
          reply: { content: [send('alice', 'TASK-A')], stop_reason: 'tool_use' },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Sent to alice' },
          reply: { content: [text('Waiting for alice.')] },
        },
        { when: { systemText: worker('alice'), lastUserText: 'TASK-A' }, reply: slow('alice first') },
        {
          when: { systemText: worker('alice'), lastUserText: 'PERSON-NOTE' },
          reply: { content: [text('alice second: checked the docs')] },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Messages from your team' },
          times: true,
          reply: { content: [text('noted')] },
        },
      ],
      {
        overrides: {
          coordinator: { waitForTeam: true },
          // The person writes to alice while she is still answering her first message.
          onAgentEvent: (e) => {
            if (e.type === 'text_delta' && !told) {
              told = true;
              t.team.message('alice', 'PERSON-NOTE: please also check the docs');
            }
          },
        },
      },
    );
    const { result } = await t.run('Start');
    expect(result.terminal.reason).toBe('completed');
    expect(result.text).toBe('noted');
    expect(told).toBe(true);

    // Her next request carried the person's message, as a message from the person.
    const second = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('PERSON-NOTE'));
    expect(JSON.stringify(second?.body.system)).toContain(worker('alice'));
    const last = second?.body.messages?.at(-1);
    expect(JSON.stringify(last)).toContain('Message from the person supervising the team:\\nPERSON-NOTE');

    // Both of her reports reached the coordinator as turns of its own, though it had ended its turn.
    const coordinatorTexts = t.api.requests
      .filter((r) => JSON.stringify(r.body.system).includes(COORDINATOR))
      .map((r) => JSON.stringify(r.body.messages?.at(-1)));
    expect(coordinatorTexts.some((x) => x.includes('From alice:\\nalice first'))).toBe(true);
    expect(coordinatorTexts.some((x) => x.includes('alice second: checked the docs'))).toBe(true);
    expect(t.team.hasCoordinatorMail()).toBe(false);
    expect(t.team.view().messages.map((m) => `${m.from}>${m.to}`)).toEqual([
      'coordinator>alice',
      'person>alice',
      'alice>coordinator',
      'alice>coordinator',
    ]);
  });

  it('stops one worker alone: it goes idle and tells the coordinator, the others carry on', async () => {
    const t = await coordinator([
      {
        when: { systemText: worker('slowpoke'), lastUserText: 'LONG' },
        reply: { content: [text(`slow ${'s'.repeat(100)}`)], chunkChars: 1, delayMs: 40 },
      },
      {
        when: { systemText: worker('quick'), lastUserText: 'SHORT' },
        reply: { content: [text('quick done')], delayMs: 5 },
      },
    ]);
    const [slowpoke] = t.team.create([
      { name: 'slowpoke', agentType: 'general-purpose', instructions: '', planMode: false },
      { name: 'quick', agentType: 'general-purpose', instructions: '', planMode: false },
    ]);
    const since = t.team.coordinator().lastSeq();
    t.team.send('slowpoke', 'LONG');
    t.team.send('quick', 'SHORT');
    while (!t.api.requests.some((r) => JSON.stringify(r.body.messages).includes('LONG')))
      await new Promise((resolve) => setTimeout(resolve, 5));
    // The person's Stop on one card: the session's stop map holds each running worker's turn.
    t.agentStops.get(slowpoke?.agentId ?? '')?.abort();
    const replies = await t.team.waitForReplies(['*'], since, new AbortController().signal);
    expect(replies.map((m) => [m.from, m.text.split('\n')[0]])).toEqual(
      expect.arrayContaining([
        ['slowpoke', 'I was stopped before I finished.'],
        ['quick', 'quick done'],
      ]),
    );
    expect(t.team.view().members.map((m) => [m.name, m.state])).toEqual([
      ['slowpoke', 'idle'],
      ['quick', 'idle'],
    ]);
    expect(t.agentStops.size).toBe(0);
  });
});
