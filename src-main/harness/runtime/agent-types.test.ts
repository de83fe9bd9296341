import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '@shared/domain/messages';
import type { AgentEvent } from '../events/agent-event';
import { testRuntime } from '../../test-support/runtime';
import { text, toolUse } from '../../test-support/engine';

const agentCall = (id: string, prompt: string, type: string) =>
  toolUse('Agent', { description: `${type} run`, prompt, subagent_type: type }, id);

function toolResults(events: readonly AgentEvent[], agentId?: string): ToolResultBlock[] {
  return events.flatMap((e) =>
    e.type === 'tool_result' && (agentId === undefined || e.agentId === agentId) ? [e.block] : [],
  );
}

function childId(events: readonly AgentEvent[]): string {
  const started = events.find((e) => e.type === 'agent_started');
  if (started?.type !== 'agent_started') throw new Error('no sub-agent started');
  return started.info.agentId;
}

const toolNames = (body: { tools?: { name: string }[] } | undefined) =>
  (body?.tools ?? []).map((t) => t.name);

describe.each(['Explore', 'Plan'])('%s is read-only', (type) => {
  it('is not offered Write or Edit, and its writing Bash is refused while reading Bash runs', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'inspect' },
          reply: { content: [agentCall('x1', 'READONLY job', type)], stop_reason: 'tool_use' },
        },
        {
          when: { lastUserText: 'READONLY job' },
          reply: {
            content: [
              toolUse('Write', { file_path: 'made.txt', content: 'x' }, 'w1'),
              toolUse('Edit', { file_path: 'seed.txt', old_string: 'seed', new_string: 'changed' }, 'e1'),
              toolUse('Bash', { command: 'touch touched.txt' }, 'b1'),
              toolUse('Bash', { command: 'echo hi > redirected.txt' }, 'b2'),
              toolUse('Bash', { command: 'cat seed.txt' }, 'b3'),
            ],
            stop_reason: 'tool_use',
          },
        },
        { when: { lastUserText: 'seed' }, reply: { content: [text('looked only')] } },
        { when: { lastUserText: 'looked only' }, reply: { content: [text('fine')] } },
      ],
    });
    writeFileSync(path.join(t.project, 'seed.txt'), 'seed\n');
    const { events } = await t.run('inspect the project');
    const sub = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('READONLY job'));
    expect(toolNames(sub?.body)).not.toContain('Write');
    expect(toolNames(sub?.body)).not.toContain('Edit');
    expect(toolNames(sub?.body)).toContain('Bash');
    const id = childId(events);
    const byId = Object.fromEntries(toolResults(events, id).map((b) => [b.tool_use_id, b]));
    // Not offered: the call fails as an unknown tool; the refused commands never ran.
    for (const refused of ['w1', 'e1', 'b1', 'b2']) expect(byId[refused]?.is_error, refused).toBe(true);
    expect(existsSync(path.join(t.project, 'made.txt'))).toBe(false);
    expect(existsSync(path.join(t.project, 'touched.txt'))).toBe(false);
    expect(existsSync(path.join(t.project, 'redirected.txt'))).toBe(false);
    expect(JSON.stringify(byId['b3']?.content)).toContain('seed');
    expect(byId['b3']?.is_error).toBeUndefined();
  });
});

describe('custom agents', () => {
  it('gets exactly the tools its file lists and its body as the system prompt', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'custom' },
          reply: { content: [agentCall('c1', 'CUSTOM job', 'code-reader')], stop_reason: 'tool_use' },
        },
        { when: { lastUserText: 'CUSTOM job' }, reply: { content: [text('read it')] } },
        { when: { lastUserText: 'read it' }, reply: { content: [text('ok')] } },
      ],
    });
    mkdirSync(path.join(t.project, '.claude', 'agents', 'nested'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'nested', 'reader.md'),
      '---\nname: code-reader\ndescription: Reads code carefully\ntools: Read, Grep\nmodel: inherit\n---\nYou are the CODE-READER persona. Only read.\n',
    );
    writeFileSync(path.join(t.project, '.claude', 'agents', 'broken.md'), '---\nname: : : bad\n---\n');
    await t.run('custom agent please');
    const sub = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('CUSTOM job'));
    expect(toolNames(sub?.body).sort()).toEqual(['Grep', 'Read']);
    const system = JSON.stringify(sub?.body.system);
    expect(system).toContain('You are the CODE-READER persona. Only read.');
    expect(system).not.toContain('You are Carapace');
    // The broken file was reported; the good one still loaded.
    expect(t.problems.join('\n')).toContain('broken.md');
  });
});

describe('Verification', () => {
  const scenario = (exit: number, verdict: string) => ({
    steps: [
      {
        when: { lastUserText: 'verify' },
        reply: {
          content: [agentCall('v1', 'VERIFY the change', 'Verification')],
          stop_reason: 'tool_use' as const,
        },
      },
      {
        when: { lastUserText: 'VERIFY the change' },
        reply: {
          content: [
            toolUse('Bash', { command: `node -e "console.log('tests ran'); process.exit(${exit})"` }, 'vb'),
          ],
          stop_reason: 'tool_use' as const,
        },
      },
      { when: { lastUserText: 'tests ran' }, reply: { content: [text(verdict)] } },
      { when: { lastUserPattern: 'VERDICT|verdict' }, reply: { content: [text('noted')] } },
    ],
  });

  it('a failing test run yields FAIL with its reasons', async () => {
    const t = await testRuntime(
      scenario(1, 'The suite exits 1.\nVERDICT: FAIL\n- npm test exits with code 1'),
    );
    const { events } = await t.run('verify it');
    const [result] = toolResults(events, t.runtime.agentId);
    expect(result?.meta?.display).toMatchObject({
      kind: 'agent',
      verdict: 'FAIL',
      verdictReasons: '- npm test exits with code 1',
    });
    const ended = events.find((e) => e.type === 'agent_ended');
    expect(ended?.type === 'agent_ended' && ended.outcome.verdict?.verdict).toBe('FAIL');
  });

  it('a passing one yields PASS', async () => {
    const t = await testRuntime(scenario(0, 'Everything passes.\n**VERDICT: PASS**'));
    const { events } = await t.run('verify it');
    const [result] = toolResults(events, t.runtime.agentId);
    expect(result?.meta?.display).toMatchObject({ kind: 'agent', verdict: 'PASS' });
  });

  it('no verdict line counts as FAIL', async () => {
    const t = await testRuntime(scenario(0, 'I looked at it and it seems fine.'));
    const { events } = await t.run('verify it');
    const [result] = toolResults(events, t.runtime.agentId);
    expect(result?.meta?.display).toMatchObject({ kind: 'agent', verdict: 'FAIL' });
    expect(JSON.stringify(result?.content)).toContain('VERDICT: FAIL');
  });
});

describe('an agent file cannot widen the session’s mode', () => {
  const file =
    '---\nname: wide\ndescription: asks for bypass\npermissionMode: bypassPermissions\n---\nYou are WIDE.\n';
  const writes = [
    toolUse('Write', { file_path: 'written.txt', content: 'x' }, 'w1'),
    toolUse('Bash', { command: 'touch touched.txt' }, 'b1'),
  ];

  it.each(['default', 'dontAsk', 'plan'] as const)(
    'a sub-agent asking for bypassPermissions under %s writes nothing nobody approved',
    async (mode) => {
      const t = await testRuntime(
        {
          steps: [
            {
              when: { lastUserText: 'widen' },
              reply: { content: [agentCall('a1', 'WIDE job', 'wide')], stop_reason: 'tool_use' },
            },
            { when: { lastUserText: 'WIDE job' }, reply: { content: writes, stop_reason: 'tool_use' } },
            { when: { systemText: 'You are WIDE' }, reply: { content: [text('tried')] } },
            { when: { lastUserText: 'tried' }, reply: { content: [text('done')] } },
          ],
        },
        // Nobody to ask: every ask is a denial, so only the mode itself could let a write through.
        { mode, handler: null },
      );
      mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
      writeFileSync(path.join(t.project, '.claude', 'agents', 'wide.md'), file);
      const { events } = await t.run('widen');
      const results = toolResults(events, childId(events));
      expect(results.map((b) => [b.tool_use_id, b.is_error])).toEqual([
        ['w1', true],
        ['b1', true],
      ]);
      expect(existsSync(path.join(t.project, 'written.txt'))).toBe(false);
      expect(existsSync(path.join(t.project, 'touched.txt'))).toBe(false);
    },
  );

  it('nor can a team’s worker of that type', async () => {
    const t = await testRuntime(
      {
        steps: [
          { when: { lastUserText: 'WIDE job' }, reply: { content: writes, stop_reason: 'tool_use' } },
          { when: { systemText: 'You are WIDE' }, reply: { content: [text('tried')] } },
        ],
      },
      { mode: 'default', handler: null, overrides: { coordinator: {} } },
    );
    const team = t.runtime.team;
    if (!team) throw new Error('not a coordinator');
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(path.join(t.project, '.claude', 'agents', 'wide.md'), file);
    team.create([{ name: 'w', agentType: 'wide', instructions: '', planMode: false }]);
    const since = team.coordinator().lastSeq();
    team.send('w', 'WIDE job');
    await team.waitForReplies(['w'], since, new AbortController().signal);
    await team.close();
    expect(existsSync(path.join(t.project, 'written.txt'))).toBe(false);
    expect(existsSync(path.join(t.project, 'touched.txt'))).toBe(false);
  });
});
