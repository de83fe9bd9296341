import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import type { ToolResultBlock } from '@shared/domain/messages';
import type { PermissionHandler, PermissionRequest } from '../permissions/handlers';
import type { AgentEvent } from '../events/agent-event';
import { readTranscript } from '../session/transcript-file';
import { testRuntime } from '../../test-support/runtime';
import { MAX_RUNNING_BACKGROUND_AGENTS } from '../agents/agent-tool';
import { MAX_AGENT_DEPTH } from './subagents';
import { text, toolUse } from '../../test-support/engine';

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });

const agentCall = (
  id: string,
  prompt: string,
  type = 'general-purpose',
  extra: Record<string, unknown> = {},
) => toolUse('Agent', { description: `task ${id}`, prompt, subagent_type: type, ...extra }, id);

function results(events: readonly AgentEvent[], agentId: string): ToolResultBlock[] {
  return events.flatMap((e) => (e.type === 'tool_result' && e.agentId === agentId ? [e.block] : []));
}

function requestTools(body: { tools?: { name: string }[] }): string[] {
  return (body.tools ?? []).map((t) => t.name);
}

describe('sub-agents through the Agent tool', () => {
  it('gives a sub-agent only its own system prompt and the prompt, and returns its text as the result', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'start' },
          reply: { content: [agentCall('tu1', 'SUBTASK find the config')], stop_reason: 'tool_use' },
        },
        { when: { lastUserText: 'SUBTASK' }, reply: { content: [text('Found config in app.json')] } },
        { when: { lastUserText: 'Found config' }, reply: { content: [text('All done')] } },
      ],
    });
    const { events, result } = await t.run('start the work, please');
    expect(result.terminal.reason).toBe('completed');
    expect(result.text).toBe('All done');

    const sub = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('SUBTASK'));
    expect(sub).toBeDefined();
    const messages = sub?.body.messages ?? [];
    // Its context is its prompt alone: not the person's message, not the parent's reply.
    expect(messages).toHaveLength(1);
    expect(JSON.stringify(messages)).not.toContain('start the work');
    const system = JSON.stringify(sub?.body.system);
    expect(system).not.toContain('You are Carapace, an AI coding agent');
    expect(system).toContain('<env>');

    const [block] = results(events, t.runtime.agentId);
    expect(block?.content).toBe('Found config in app.json');
    expect(block?.is_error).toBeUndefined();
    expect(block?.meta?.display).toMatchObject({
      kind: 'agent',
      agentType: 'general-purpose',
      background: false,
    });

    // Its transcript is saved beside the session, named for the agent.
    const started = events.find((e) => e.type === 'agent_started');
    if (started?.type !== 'agent_started') throw new Error('no agent_started');
    expect(started.info.transcriptFile).toBe(
      path.join(t.runtime.sessionDir, 'subagents', `${started.info.agentId}.jsonl`),
    );
    const saved = readTranscript(started.info.transcriptFile).lines;
    expect(saved.some((l) => l.type === 'session' && l.agent?.agentId === started.info.agentId)).toBe(true);
    expect(JSON.stringify(saved)).toContain('Found config in app.json');
  });

  it('runs two Agent calls of one message at the same time', async () => {
    // Each reply waits at a gate until the test has seen both requests: run one after the other,
    // the second would never be sent and the poll below would fail.
    const slow = (label: string) => ({
      content: [text(`${label} finished: ${'x'.repeat(200)}`)],
      chunkChars: 10,
      hold: { afterEvents: 0, gate: 'both' },
    });
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'go' },
          reply: {
            content: [agentCall('a1', 'ALPHA job'), agentCall('b1', 'BETA job')],
            stop_reason: 'tool_use',
          },
        },
        { when: { lastUserText: 'ALPHA job' }, reply: slow('alpha') },
        { when: { lastUserText: 'BETA job' }, reply: slow('beta') },
        { when: { lastUserPattern: 'finished' }, reply: { content: [text('both done')] } },
      ],
    });
    const order: string[] = [];
    const running = t.run('go', {}, (e) => {
      if (e.type === 'agent_started') order.push(`start ${e.info.name}`);
      if (e.type === 'agent_ended') order.push(`end ${e.agentId}`);
    });
    // The server has both requests while neither reply can end.
    const asked = (label: string) =>
      t.api.requests.some((r) => JSON.stringify(r.body.messages).includes(label));
    await expect.poll(() => asked('ALPHA job') && asked('BETA job')).toBe(true);
    t.api.release('both');
    const { result } = await running;
    expect(result.text).toBe('both done');
    // Both started before either ended.
    expect(order.slice(0, 2).sort()).toEqual(['start task a1', 'start task b1']);
  });

  it('Stop during a sub-agent’s tool call ends it and records the interruption', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'begin' },
          reply: { content: [agentCall('s1', 'SLEEPER task')], stop_reason: 'tool_use' },
        },
        {
          when: { lastUserText: 'SLEEPER' },
          reply: { content: [toolUse('Bash', { command: 'sleep 30' }, 'bash1')], stop_reason: 'tool_use' },
        },
      ],
    });
    const stop = new AbortController();
    const began = performance.now();
    const { events, result } = await t.run('begin', { signal: stop.signal }, (e) => {
      if (e.type === 'tool_start' && e.block.name === 'Bash') setTimeout(() => stop.abort(), 200);
    });
    expect(result.terminal.reason).toBe('aborted');
    expect(performance.now() - began).toBeLessThan(20_000);
    const started = events.find((e) => e.type === 'agent_started');
    if (started?.type !== 'agent_started') throw new Error('no agent_started');
    const ended = events.find((e) => e.type === 'agent_ended');
    expect(ended?.type === 'agent_ended' && ended.outcome.reason).toBe('aborted');
    // The sub-agent's own transcript closes its Bash call as interrupted…
    const sub = readTranscript(started.info.transcriptFile).lines;
    const subResults = sub.flatMap((l) =>
      l.type === 'item' && l.item.kind === 'message'
        ? l.item.content.filter((b): b is ToolResultBlock => b.type === 'tool_result')
        : [],
    );
    expect(subResults.find((b) => b.tool_use_id === 'bash1')?.is_error).toBe(true);
    expect(JSON.stringify(subResults)).toMatch(/[Ii]nterrupted/);
    // …and the parent's Agent call is recorded as interrupted too.
    const parentResults = readTranscript(t.transcriptFile).lines.flatMap((l) =>
      l.type === 'item' && l.item.kind === 'message'
        ? l.item.content.filter((b): b is ToolResultBlock => b.type === 'tool_result')
        : [],
    );
    const agentResult = parentResults.find((b) => b.tool_use_id === 's1');
    expect(agentResult?.is_error).toBe(true);
    expect(JSON.stringify(agentResult?.content)).toMatch(/[Ii]nterrupted/);
  });

  it('rolls every sub-agent’s usage up into the session total, per model', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'cost' },
          reply: {
            content: [agentCall('c1', 'EXPLORE it', 'Explore'), agentCall('c2', 'GENERAL it')],
            stop_reason: 'tool_use',
            usage: usage(1000, 100),
          },
        },
        {
          when: { lastUserText: 'EXPLORE it' },
          reply: { content: [text('explored')], usage: usage(3000, 300) },
        },
        {
          when: { lastUserText: 'GENERAL it' },
          reply: { content: [text('generalled')], usage: usage(5000, 500) },
        },
        {
          when: { lastUserPattern: 'explored|generalled' },
          reply: { content: [text('sum')], usage: usage(2000, 200) },
        },
      ],
    });
    const { events } = await t.run('cost check');
    const children = events.flatMap((e) => (e.type === 'agent_started' ? [e.info] : []));
    expect(children).toHaveLength(2);
    // Explore runs on the cheaper model by default.
    expect(children.find((c) => c.agentType === 'Explore')?.model).toBe('claude-haiku-4-5');

    const own = t.runtime.engine.ownCost.modelUsage();
    const total = t.runtime.engine.cost.modelUsage();
    const childBuckets = children.map((c) => {
      const line = readTranscript(c.transcriptFile)
        .lines.filter((l) => l.type === 'cost')
        .at(-1);
      if (line?.type !== 'cost') throw new Error('no cost line');
      return line.snapshot.modelUsage;
    });
    const sum: Record<string, { inputTokens: number; outputTokens: number; costMicros: number }> = {};
    for (const buckets of [own, ...childBuckets])
      for (const [model, b] of Object.entries(buckets)) {
        const s = (sum[model] ??= { inputTokens: 0, outputTokens: 0, costMicros: 0 });
        s.inputTokens += b.inputTokens;
        s.outputTokens += b.outputTokens;
        s.costMicros += b.costMicros;
      }
    expect(Object.keys(total).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    for (const [model, b] of Object.entries(total)) {
      expect({ inputTokens: b.inputTokens, outputTokens: b.outputTokens, costMicros: b.costMicros }).toEqual(
        sum[model],
      );
    }
    expect(total['claude-sonnet-4-5']?.inputTokens).toBe(1000 + 5000 + 2000);
    expect(total['claude-haiku-4-5']?.inputTokens).toBe(3000);
    expect(t.runtime.engine.cost.totalCostUsd).toBeGreaterThan(t.runtime.engine.ownCost.totalCostUsd);
  });

  it('a sub-agent cannot start sub-agents unless its definition lists the Agent tool', async () => {
    const agents = (project: string) => {
      mkdirSync(path.join(project, '.claude', 'agents'), { recursive: true });
      writeFileSync(
        path.join(project, '.claude', 'agents', 'lead.md'),
        '---\nname: lead\ndescription: leads\ntools: Read, Agent\n---\nYou lead a small effort.\n',
      );
    };
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'delegate' },
          reply: { content: [agentCall('d1', 'PLAIN sub')], stop_reason: 'tool_use' },
        },
        { when: { lastUserText: 'PLAIN sub' }, reply: { content: [text('plain done')] } },
        {
          when: { lastUserText: 'plain done' },
          reply: { content: [agentCall('d2', 'LEAD sub', 'lead')], stop_reason: 'tool_use' },
        },
        { when: { lastUserText: 'LEAD sub' }, reply: { content: [text('lead done')] } },
        { when: { lastUserText: 'lead done' }, reply: { content: [text('ok')] } },
      ],
    });
    agents(t.project);
    await t.run('delegate twice');
    const plain = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('PLAIN sub'));
    const lead = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('LEAD sub'));
    expect(requestTools(plain?.body ?? {})).not.toContain('Agent');
    expect(requestTools(lead?.body ?? {}).sort()).toEqual(['Agent', 'Read']);
  });

  it('bounds delegation: an agent that starts itself stops at the depth limit', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { systemText: 'RECURSIVE persona', lastUserText: 'go deeper' },
          times: true,
          reply: { content: [agentCall('again', 'go deeper', 'recur')], stop_reason: 'tool_use' },
        },
        {
          when: { lastUserText: 'go down' },
          reply: { content: [agentCall('top', 'go deeper', 'recur')], stop_reason: 'tool_use' },
        },
        {
          when: { lastUserPattern: 'No such tool|bottom' },
          times: true,
          reply: { content: [text('bottom reached')] },
        },
      ],
    });
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'recur.md'),
      '---\nname: recur\ndescription: starts itself\ntools: Agent, Read\n---\nYou are the RECURSIVE persona.\n',
    );
    const { events } = await t.run('go down');
    const started = events.flatMap((e) => (e.type === 'agent_started' ? [e.info] : []));
    expect(started).toHaveLength(MAX_AGENT_DEPTH);
    // The deepest one is not offered the Agent tool at all.
    const deepest = started.at(-1)?.agentId ?? '';
    const itsRequests = t.api.requests.filter(
      (r) => JSON.stringify(r.body.system).includes('RECURSIVE') && r.body.messages?.length === 1,
    );
    expect(itsRequests.map((r) => requestTools(r.body).includes('Agent'))).toEqual([true, true, false]);
    const failed = events.find((e) => e.type === 'tool_result' && e.agentId === deepest);
    expect(failed?.type === 'tool_result' && failed.block.is_error).toBe(true);
  });

  it('runs an agent in the background: the call returns at once, the result is read later', async () => {
    const changes: string[] = [];
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'background' },
            reply: {
              content: [agentCall('bg1', 'BACKGROUND job', 'general-purpose', { run_in_background: true })],
              stop_reason: 'tool_use',
            },
          },
          {
            when: { lastUserText: 'BACKGROUND job' },
            // Held until the test has seen the call return: with only a 150 ms stream, a loaded
            // machine could finish the agent before the parent's turn ended, and 'running' failed.
            reply: {
              content: [text('background result 42')],
              delayMs: 30,
              chunkChars: 4,
              hold: { afterEvents: 0, gate: 'bg' },
            },
          },
          {
            when: { lastUserText: 'Started the general-purpose agent' },
            reply: { content: [text('launched')] },
          },
        ],
      },
      { overrides: { taskEvents: { onChange: (task) => changes.push(`${task.kind} ${task.status}`) } } },
    );
    const { result, events } = await t.run('background please');
    expect(result.text).toBe('launched');
    const [block] = results(events, t.runtime.agentId);
    const taskId = /task (agent_\w+)/.exec(JSON.stringify(block?.content))?.[1];
    expect(taskId).toBeDefined();
    // It returned before the agent finished.
    expect(t.runtime.engine.tasks.list().find((x) => x.id === taskId)?.status).toBe('running');
    t.api.release('bg');
    await t.runtime.engine.tasks.waitFor(taskId ?? '', 10_000, new AbortController().signal);
    const read = t.runtime.engine.tasks.readNew(taskId ?? '');
    expect(read?.status).toBe('completed');
    expect(read?.output).toBe('background result 42');
    // The person is told when it starts and when it ends.
    expect(changes.filter((c) => !c.endsWith('running'))).toEqual(['local_agent completed']);
  });
});

describe('sub-agents against a hostile model', () => {
  it('a sub-agent’s own background agent is paid for by the session, not only by the sub-agent', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'lead it' },
          reply: {
            content: [agentCall('l1', 'LEAD job', 'lead')],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { lastUserText: 'LEAD job' },
          reply: {
            content: [agentCall('b1', 'BACKGROUND job', 'general-purpose', { run_in_background: true })],
            stop_reason: 'tool_use',
            usage: usage(200, 20),
          },
        },
        {
          when: { lastUserText: 'BACKGROUND job' },
          reply: { content: [text('bg result')], usage: usage(7000, 700) },
        },
        {
          // The lead waits a little, so its background agent ends before it does.
          when: { lastUserText: 'Started the general-purpose' },
          reply: {
            content: [toolUse('Bash', { command: 'sleep 0.5' }, 'wait1')],
            stop_reason: 'tool_use',
            usage: usage(300, 30),
          },
        },
        { when: { systemText: 'You lead' }, reply: { content: [text('lead done')], usage: usage(400, 40) } },
        {
          when: { lastUserText: 'lead done' },
          reply: { content: [text('all done')], usage: usage(500, 50) },
        },
      ],
    });
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'lead.md'),
      '---\nname: lead\ndescription: leads\ntools: Agent, Bash\n---\nYou lead.\n',
    );
    const { result } = await t.run('lead it');
    expect(result.text).toBe('all done');
    expect(t.api.requests.some((r) => JSON.stringify(r.body.messages).includes('BACKGROUND job'))).toBe(true);
    // Every request made is in the session's total: its own, the lead's and the background agent's.
    expect(t.runtime.engine.cost.totalUsage().inputTokens).toBe(100 + 200 + 7000 + 300 + 400 + 500);
  });
});

describe('background agents are bounded', () => {
  it(`starts at most ${MAX_RUNNING_BACKGROUND_AGENTS} at once; the calls past that are refused with a way out`, async () => {
    const n = MAX_RUNNING_BACKGROUND_AGENTS + 3;
    const calls = Array.from({ length: n }, (_, i) =>
      agentCall(`bg${i}`, `FANOUT job ${i}`, 'general-purpose', { run_in_background: true }),
    );
    const t = await testRuntime({
      steps: [
        { when: { lastUserText: 'fan out' }, reply: { content: calls, stop_reason: 'tool_use' } },
        // Each background agent is still answering when the message's calls are all made: held
        // until the test is done looking (a 0.5 s stream could end early on a loaded machine, and
        // a later call was then let through).
        {
          when: { lastUserPattern: '^FANOUT job' },
          times: true,
          reply: { content: [text('fan result')], hold: { afterEvents: 0, gate: 'fan' } },
        },
        { when: { lastUserPattern: 'Started|Not started' }, reply: { content: [text('launched')] } },
      ],
    });
    const { events, result } = await t.run('fan out');
    expect(result.text).toBe('launched');
    const blocks = results(events, t.runtime.agentId);
    expect(blocks).toHaveLength(n);
    const refused = blocks.filter((b) => b.is_error === true);
    expect(refused).toHaveLength(n - MAX_RUNNING_BACKGROUND_AGENTS);
    expect(JSON.stringify(refused[0]?.content)).toContain(
      `at most ${MAX_RUNNING_BACKGROUND_AGENTS} background agents run at once`,
    );
    expect(t.runtime.engine.tasks.list().filter((x) => x.kind === 'local_agent')).toHaveLength(
      MAX_RUNNING_BACKGROUND_AGENTS,
    );
    t.api.release('fan');
  });
});

describe('an agent file’s turn limit', () => {
  it('never lets a sub-agent run more turns than the person allowed its parent', async () => {
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'long job' },
            reply: { content: [agentCall('m1', 'ENDLESS job', 'endless')], stop_reason: 'tool_use' },
          },
          // The sub-agent never stops calling tools on its own.
          {
            when: { systemText: 'You never stop' },
            times: true,
            reply: { content: [toolUse('Glob', { pattern: '*' })], stop_reason: 'tool_use' },
          },
          { when: { lastUserPattern: 'ended early' }, reply: { content: [text('stopped')] } },
        ],
      },
      { overrides: { maxTurns: 3 } },
    );
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'endless.md'),
      '---\nname: endless\ndescription: runs long\nmaxTurns: 500\n---\nYou never stop.\n',
    );
    const { events } = await t.run('long job');
    const subRequests = t.api.requests.filter((r) =>
      JSON.stringify(r.body.system).includes('You never stop'),
    );
    expect(subRequests).toHaveLength(3);
    const ended = events.find((e) => e.type === 'agent_ended');
    expect(ended?.type === 'agent_ended' && ended.outcome.reason).toBe('max_turns');
  });
});

describe('who asks', () => {
  it('a sub-agent’s sub-agent is named as itself on its permission request, not as its parent', async () => {
    const asked: PermissionRequest[] = [];
    const handler: PermissionHandler = {
      resolve: (request) => {
        asked.push(request);
        return Promise.resolve({ behavior: 'deny', by: 'user' });
      },
    };
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'delegate' },
            reply: { content: [agentCall('o1', 'OUTER job', 'lead')], stop_reason: 'tool_use' },
          },
          {
            when: { lastUserText: 'OUTER job' },
            reply: { content: [agentCall('i1', 'INNER job')], stop_reason: 'tool_use' },
          },
          {
            when: { lastUserText: 'INNER job' },
            reply: {
              content: [toolUse('Write', { file_path: 'inner.txt', content: 'x' }, 'w1')],
              stop_reason: 'tool_use',
            },
          },
          { when: { lastUserPattern: 'denied|reject|refus' }, times: true, reply: { content: [text('ok')] } },
          { when: { lastUserText: 'ok' }, times: true, reply: { content: [text('ok')] } },
        ],
      },
      { mode: 'default', handler },
    );
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'lead.md'),
      '---\nname: lead\ndescription: leads\ntools: Agent, Read, Write\n---\nYou lead.\n',
    );
    const { events } = await t.run('delegate');
    const started = events.flatMap((e) => (e.type === 'agent_started' ? [e.info] : []));
    const inner = started.find((a) => a.name === 'task i1');
    expect(inner).toBeDefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]?.agent).toEqual({ id: inner?.agentId, name: 'task i1', agentType: 'general-purpose' });
  });
});

describe('odd agent types', () => {
  it('refuses __proto__, constructor and a huge name as unknown types, and the turn goes on', async () => {
    const odd = ['__proto__', 'constructor', 'toString', 'x'.repeat(100_000)];
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'odd' },
          reply: {
            content: odd.map((type, i) => agentCall(`o${i}`, 'ODD job', type)),
            stop_reason: 'tool_use',
          },
        },
        { when: { lastUserPattern: 'There is no agent type' }, reply: { content: [text('understood')] } },
      ],
    });
    const { events, result } = await t.run('odd types');
    expect(result.text).toBe('understood');
    const blocks = results(events, t.runtime.agentId);
    expect(blocks.map((b) => b.is_error)).toEqual([true, true, true, true]);
    expect(JSON.stringify(blocks[0]?.content)).toContain('There is no agent type \\"__proto__\\"');
    // The refusal does not echo a huge name back whole.
    expect(JSON.stringify(blocks[3]?.content).length).toBeLessThan(2000);
    expect(events.some((e) => e.type === 'agent_started')).toBe(false);
  });
});

describe('a free demo session', () => {
  it('keeps its sub-agents on the demo model, whatever model a call or an agent file names', async () => {
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'paid please' },
            reply: {
              content: [
                agentCall('p1', 'OPUS job', 'general-purpose', { model: 'opus' }),
                agentCall('p2', 'ID job', 'general-purpose', { model: 'claude-opus-4-5' }),
                agentCall('p3', 'EXPLORE job', 'Explore'),
                agentCall('p4', 'FILE job', 'pricey'),
              ],
              stop_reason: 'tool_use',
            },
          },
          { when: { lastUserPattern: 'job$' }, times: true, reply: { content: [text('sub done')] } },
          { when: { lastUserText: 'sub done' }, reply: { content: [text('all done')] } },
        ],
      },
      { overrides: { model: DEMO_MODEL_ID } },
    );
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'pricey.md'),
      '---\nname: pricey\ndescription: costly\nmodel: claude-opus-4-5\n---\nYou cost.\n',
    );
    await t.run('paid please');
    const models = t.api.requests.map((r) => r.body.model);
    expect(models).toHaveLength(6);
    expect(new Set(models)).toEqual(new Set([DEMO_MODEL_ID]));
  });
});

describe('a repository’s agent file and the price of delegation', () => {
  it('a project file overriding general-purpose with a dearer model runs on the parent’s model instead', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'delegate' },
          reply: { content: [agentCall('g1', 'GENERAL job')], stop_reason: 'tool_use' },
        },
        { when: { lastUserText: 'GENERAL job' }, reply: { content: [text('sub done')] } },
        { when: { lastUserText: 'sub done' }, reply: { content: [text('all done')] } },
      ],
    });
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'general-purpose.md'),
      '---\nname: general-purpose\ndescription: does everything\nmodel: opus\n---\nYou are general.\n',
    );
    const { events } = await t.run('delegate');
    const sub = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('GENERAL job'));
    expect(JSON.stringify(sub?.body.system)).toContain('You are general.');
    expect(sub?.body.model).toBe('claude-sonnet-4-5');
    const started = events.find((e) => e.type === 'agent_started');
    expect(started?.type === 'agent_started' && started.info.model).toBe('claude-sonnet-4-5');
  });
});
