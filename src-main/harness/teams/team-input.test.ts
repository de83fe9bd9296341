import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AppError } from '../../platform/errors';
import { sanitizeEnv } from '../../platform/env';
import { testRuntime } from '../../test-support/runtime';
import { text, toolUse } from '../../test-support/engine';
import { createAgentCatalog } from '../agents/catalog';
import { AnthropicModelClient } from '../model/anthropic-client';
import { createRuntime } from '../runtime/create-runtime';
import { readTranscript } from '../session/transcript-file';
import { builtinTools } from '../tools/registry';
import type { TeamMessage } from '@shared/domain/team';
import type { WorkerSpec } from '../tools/tool';
import { VIEW_MESSAGE_CHARS } from './team-manager';
import { COORDINATOR } from '../../test-support/team-scenario';

const spec = (name: string, extra: Partial<WorkerSpec> = {}): WorkerSpec => ({
  name,
  agentType: 'general-purpose',
  instructions: `You are ${name}.`,
  planMode: false,
  ...extra,
});

async function coordinator(steps: Parameters<typeof testRuntime>[0]['steps'] = []) {
  const t = await testRuntime({ steps }, { mode: 'default', overrides: { coordinator: {} } });
  onTestFinished(() => t.runtime.team?.close());
  if (!t.runtime.team) throw new Error('not a coordinator');
  return { ...t, team: t.runtime.team };
}

/** The same coordinator session built again from its files, as a new process would. */
function reopen(t: Awaited<ReturnType<typeof coordinator>>) {
  const client = new AnthropicModelClient({ apiKey: 'test', baseURL: t.api.url, maxRetries: 0 });
  const runtime = createRuntime({
    sessionId: t.runtime.engine.sessionId,
    projectRoot: t.project,
    transcriptFile: t.transcriptFile,
    locations: { home: t.home, projectRoot: t.project, policyFile: path.join(t.home, 'no-policy.json') },
    home: t.home,
    sandbox: null,
    initialMode: 'default',
    mode: () => 'default',
    handler: null,
    model: 'claude-sonnet-4-5',
    tools: builtinTools(),
    models: { clientFor: () => client },
    toolEnv: sanitizeEnv(process.env),
    sleep: () => Promise.resolve(),
    agents: createAgentCatalog({ projectRoot: t.project, home: t.home, carapaceHome: t.home }),
    coordinator: {},
  });
  runtime.engine.resume(readTranscript(t.transcriptFile).lines);
  onTestFinished(async () => {
    await runtime.team?.close();
    await runtime.engine.close();
  });
  if (!runtime.team) throw new Error('not a coordinator');
  return { runtime, team: runtime.team };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

function refusal(work: () => unknown): { code: string; message: string } {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a team refuses bad input with clear errors', () => {
  it('names that are not plain words, reserved or taken, and unknown workers or types', async () => {
    const t = await coordinator();
    for (const name of [
      '../x',
      'a/b',
      '..',
      '.hidden',
      'a\\b',
      '',
      'x'.repeat(65),
      '*',
      'coordinator',
      'Person',
    ]) {
      expect(refusal(() => t.team.create([spec(name)])).code).toBe('INVALID_INPUT');
    }
    // Nothing was written anywhere for them, inside the session folder or beside it.
    expect(existsSync(path.join(t.runtime.sessionDir, 'team', 'team.jsonl'))).toBe(false);
    expect(existsSync(path.join(t.runtime.sessionDir, '..', 'x'))).toBe(false);
    expect(existsSync(path.join(t.runtime.sessionDir, 'subagents'))).toBe(false);

    // Duplicates, in one request (whatever the case) or against the team: none of the request is created.
    expect(refusal(() => t.team.create([spec('alice'), spec('Alice')]))).toMatchObject({ code: 'CONFLICT' });
    expect(t.team.view().members).toEqual([]);
    t.team.create([spec('alice')]);
    expect(refusal(() => t.team.create([spec('bob'), spec('ALICE')])).message).toMatch(
      /already a worker named "ALICE"/,
    );
    expect(t.team.view().members.map((m) => m.name)).toEqual(['alice']);
    expect(refusal(() => t.team.create([spec('dan', { agentType: 'wizard' })])).message).toMatch(
      /no agent type "wizard". Available: .*general-purpose/,
    );

    expect(refusal(() => t.team.send('nobody', 'hi'))).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no worker named "nobody". Workers: alice.',
    });
    expect(refusal(() => t.team.message('*', 'hi')).code).toBe('INVALID_INPUT');
    expect(refusal(() => t.team.decidePlan('alice', true, '', 'person'))).toMatchObject({ code: 'CONFLICT' });
    await expect(t.team.remove(['ghost'])).rejects.toThrow(/no worker named "ghost"/);
    await t.team.remove(['alice']);
    expect(refusal(() => t.team.send('alice', 'hi')).message).toMatch(/Worker "alice" has ended/);

    // Every file the team wrote is inside its folder, named by agent id.
    const files = readdirSync(path.join(t.runtime.sessionDir, 'team'), { recursive: true, encoding: 'utf8' });
    expect(files.sort()).toEqual(['team.jsonl']);
    expect(readdirSync(path.join(t.runtime.sessionDir, 'subagents'))).toEqual([
      `${t.team.view().members[0]?.agentId ?? ''}.jsonl`,
    ]);
  });

  it('through the tools, a refusal is a result the model reads and the turn goes on', async () => {
    const t = await coordinator([
      {
        when: { systemText: COORDINATOR, lastUserText: 'go' },
        reply: {
          content: [
            toolUse(
              'TeamCreate',
              { workers: [{ name: '../x', agent_type: 'general-purpose', instructions: '' }] },
              'c1',
            ),
            toolUse('SendMessage', { to: 'ghost', message: 'hi' }, 's1'),
            toolUse('TeamDelete', { workers: ['ghost'] }, 'd1'),
          ],
          stop_reason: 'tool_use',
        },
      },
      { when: { systemText: COORDINATOR, lastUserText: 'ghost' }, reply: { content: [text('understood')] } },
    ]);
    const { events, result } = await t.run('go');
    expect(result.text).toBe('understood');
    const blocks = events.flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));
    expect(blocks.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ['c1', true],
      ['s1', true],
      ['d1', true],
    ]);
    expect(JSON.stringify(blocks[0]?.content)).toContain('not a valid worker name');
    expect(JSON.stringify(blocks[1]?.content)).toContain('There is no worker named \\"ghost\\"');
  });
});

describe('a team comes back from disk', () => {
  it('with its members, mailboxes and unread mail; a worker stopped mid-turn is idle with its transcript intact; bad lines are skipped and reported', async () => {
    const t = await coordinator([
      { when: { lastUserText: 'FIRST-A' }, reply: { content: [text('alice answered')] } },
      // Bob's first answer streams for seconds: the "process" ends under it.
      {
        when: { lastUserText: 'FIRST-B' },
        reply: { content: [text(`bob ${'y'.repeat(100)}`)], chunkChars: 1, delayMs: 50 },
      },
      { when: { lastUserText: 'SECOND-B' }, reply: { content: [text('bob answered the second')] } },
    ]);
    t.team.create([spec('alice'), spec('bob')]);
    const since = t.team.coordinator().lastSeq();
    t.team.send('alice', 'FIRST-A');
    const [reply] = await t.team.waitForReplies(['alice'], since, new AbortController().signal);
    expect(reply?.text).toBe('alice answered');
    t.team.send('bob', 'FIRST-B');
    await until(() => t.api.requests.some((r) => JSON.stringify(r.body.messages).includes('FIRST-B')));
    // A few characters in (each comes 50 ms apart; the whole answer takes 5 s).
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Written while bob is busy: it waits in his mailbox.
    t.team.send('bob', 'SECOND-B');
    expect(t.team.view().members.find((m) => m.name === 'bob')).toMatchObject({
      state: 'working',
      unread: 1,
    });
    const bobId = t.team.view().members.find((m) => m.name === 'bob')?.agentId ?? '';
    await t.team.close();
    await t.runtime.engine.close();

    // Damage: a corrupt line and a torn tail in bob's mailbox; hostile and broken roster lines.
    const teamDir = path.join(t.runtime.sessionDir, 'team');
    appendFileSync(
      path.join(teamDir, 'mail', `${bobId}.jsonl`),
      'this is not json\n{"type":"message","seq":',
    );
    appendFileSync(
      path.join(teamDir, 'team.jsonl'),
      [
        JSON.stringify({
          type: 'member',
          agentId: '../../evil',
          name: 'evil',
          agentType: 'general-purpose',
          model: 'm',
          instructions: '',
          planMode: false,
          createdAt: 'now',
        }),
        JSON.stringify({
          type: 'member',
          agentId: 'agent-00000000000000ff',
          name: '../x',
          agentType: 'general-purpose',
          model: 'm',
          instructions: '',
          planMode: false,
          createdAt: 'now',
        }),
        JSON.stringify({ type: 'ended', agentId: 'agent-0000000000000000', at: 'now' }),
        '{"type":',
        '',
      ].join('\n'),
    );

    const again = reopen(t);
    const view = again.team.view();
    expect(view.members.map((m) => [m.name, m.state, m.unread])).toEqual([
      ['alice', 'idle', 0],
      ['bob', 'idle', 1],
    ]);
    expect(view.messages.map((m) => `${m.from}>${m.to}:${m.text}`)).toEqual([
      'coordinator>alice:FIRST-A',
      'alice>coordinator:alice answered',
      'coordinator>bob:FIRST-B',
      'coordinator>bob:SECOND-B',
    ]);
    expect(again.team.problems).toEqual([
      "Line 3 of the team's roster is not an entry this version understands; it was skipped.",
      "Line 6 of the team's roster is not valid JSON; it was skipped.",
      'The roster names a worker "../x", which is not allowed; it was skipped.',
      'The roster mentions an unknown worker agent-0000000000000000; that line was skipped.',
      "Line 4 of worker bob's mailbox is not valid JSON; it was skipped.",
      "The last line of worker bob's mailbox was cut off (probably a crash mid-write); it was skipped.",
    ]);
    // Bob's transcript kept his interrupted answer.
    const bobFile = path.join(t.runtime.sessionDir, 'subagents', `${bobId}.jsonl`);
    const items = readTranscript(bobFile).lines.flatMap((l) => (l.type === 'item' ? [l.item] : []));
    expect(JSON.stringify(items)).toContain('FIRST-B');
    expect(items.some((i) => i.kind === 'message' && i.status === 'interrupted')).toBe(true);

    // Woken, bob takes up the mail that waited, with his earlier conversation behind it.
    again.team.wake();
    while (again.team.busy()) await again.team.nextChange();
    const second = t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('SECOND-B'));
    expect(JSON.stringify(second?.body.messages)).toContain('FIRST-B');
    expect(again.team.takeCoordinatorMail()).toContain('bob answered the second');
    expect(again.team.view().members.find((m) => m.name === 'bob')?.unread).toBe(0);
    // What was written after the torn line starts on a line of its own: read back, it is all there.
    const third = reopen(t);
    expect(third.team.view().messages.map((m) => m.text)).toContain('bob answered the second');
    expect(third.team.problems).toContain(
      "Line 5 of worker bob's mailbox is not valid JSON; it was skipped.",
    );
  });
});

describe('a team comes back from hostile files', () => {
  it('a FIFO or a link to /dev/zero in place of its mailboxes or a worker’s transcript is reported, never read', async () => {
    const t = await coordinator([
      { when: { lastUserText: 'HELLO-A' }, reply: { content: [text('alice here')] } },
      { when: { lastUserText: 'AGAIN-A' }, reply: { content: [text('alice again')] } },
    ]);
    t.team.create([spec('alice'), spec('bob')]);
    const since = t.team.coordinator().lastSeq();
    t.team.send('alice', 'HELLO-A');
    await t.team.waitForReplies(['alice'], since, new AbortController().signal);
    const id = (name: string) => t.team.view().members.find((m) => m.name === name)?.agentId ?? '';
    const [aliceId, bobId] = [id('alice'), id('bob')];
    await t.team.close();
    await t.runtime.engine.close();

    const teamDir = path.join(t.runtime.sessionDir, 'team');
    const coordinatorBox = path.join(teamDir, 'mail', 'coordinator.jsonl');
    rmSync(coordinatorBox);
    execFileSync('mkfifo', [coordinatorBox]);
    symlinkSync('/dev/zero', path.join(teamDir, 'mail', `${bobId}.jsonl`));
    const aliceTranscript = path.join(t.runtime.sessionDir, 'subagents', `${aliceId}.jsonl`);
    rmSync(aliceTranscript);
    execFileSync('mkfifo', [aliceTranscript]);

    const again = reopen(t);
    expect(again.team.problems).toEqual([
      "Could not read the coordinator's mailbox: it is not a regular file",
      "Could not read worker bob's mailbox: it is a link, not a file",
    ]);
    // Bob's mail cannot be delivered (not to /dev/zero); the refusal is an error, not a hang.
    expect(() => again.team.send('bob', 'HI-B')).toThrow(/Could not write to worker bob's mailbox/);
    // Alice works again: her transcript is no file to take up, and she says so (to a mailbox that
    // is no file either, which is reported too).
    again.team.send('alice', 'AGAIN-A');
    while (again.team.busy()) await again.team.nextChange();
    expect(again.team.problems.join('\n')).toMatch(/alice's report could not be delivered/);
    expect(t.api.requests.some((r) => JSON.stringify(r.body.messages).includes('AGAIN-A'))).toBe(false);
  });

  it('a worker of a session switched to the demo model goes onto it, live or restored, whatever its roster and transcript say', async () => {
    const t = await coordinator([
      { when: { lastUserText: 'FIRST' }, reply: { content: [text('first done')] } },
      { when: { lastUserText: 'MIDDLE' }, reply: { content: [text('middle done')] } },
      { when: { lastUserText: 'SECOND' }, reply: { content: [text('second done')] } },
    ]);
    t.team.create([spec('alice', { model: 'opus' })]);
    expect(t.team.view().members[0]?.model).toBe('claude-opus-4-5');
    const since = t.team.coordinator().lastSeq();
    t.team.send('alice', 'FIRST');
    await t.team.waitForReplies(['alice'], since, new AbortController().signal);
    // Switched to the demo model while she lives: her next turn is free too.
    t.runtime.engine.setModel(DEMO_MODEL_ID);
    const later = t.team.coordinator().lastSeq();
    t.team.send('alice', 'MIDDLE');
    await t.team.waitForReplies(['alice'], later, new AbortController().signal);
    await t.team.close();
    await t.runtime.engine.close();

    // The session is a free demo now (switched, or a roster that was never its own).
    const again = reopen(t);
    again.runtime.engine.setModel(DEMO_MODEL_ID);
    const after = again.team.coordinator().lastSeq();
    again.team.send('alice', 'SECOND');
    const [reply] = await again.team.waitForReplies(['alice'], after, new AbortController().signal);
    expect(reply?.text).toBe('second done');
    const model = (word: string) =>
      t.api.requests.find((r) => JSON.stringify(r.body.messages).includes(word))?.body.model;
    expect([model('FIRST'), model('MIDDLE'), model('SECOND')]).toEqual([
      'claude-opus-4-5',
      DEMO_MODEL_ID,
      DEMO_MODEL_ID,
    ]);
  });
});

describe('huge messages', () => {
  it('reach the worker whole, while the view the window gets at every change stays small', async () => {
    const events: TeamMessage[] = [];
    const t = await testRuntime(
      { steps: [{ when: { lastUserPattern: 'HUGE' }, times: true, reply: { content: [text('read it')] } }] },
      {
        mode: 'default',
        overrides: { coordinator: { events: { onMessage: (m) => events.push(m) } } },
      },
    );
    const team = t.runtime.team;
    if (!team) throw new Error('not a coordinator');
    onTestFinished(() => team.close());
    const names = Array.from({ length: 10 }, (_, i) => `w${i}`);
    team.create(names.map((n) => spec(n)));
    const huge = `HUGE ${'x'.repeat(99_000)}`;
    for (let round = 0; round < 3; round++) {
      const since = team.coordinator().lastSeq();
      team.send('*', huge);
      await team.waitForReplies(['*'], since, new AbortController().signal);
    }
    // Each worker read the whole message.
    const asked = t.api.requests.filter((r) => JSON.stringify(r.body.messages).includes('HUGE'));
    expect(asked).toHaveLength(30);
    expect(JSON.stringify(asked[0]?.body.messages)).toContain(huge);
    // The view: 30 messages of 99,000 characters would be 3 MB at every change.
    const view = team.view();
    expect(view.messages.filter((m) => m.text.startsWith('HUGE'))).toHaveLength(30);
    expect(JSON.stringify(view).length).toBeLessThan(30 * (VIEW_MESSAGE_CHARS + 500) + 50_000);
    expect(view.messages[0]?.text).toMatch(/more characters; the whole message is in w0's transcript\]$/);
    expect(events.every((m) => m.text.length <= VIEW_MESSAGE_CHARS + 200)).toBe(true);
  });
});
