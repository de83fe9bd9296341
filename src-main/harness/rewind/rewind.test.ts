import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WireResult } from '@shared/ipc/wire';
import { ForkOutcome, RewindOutcome, RewindPlan } from '@shared/ipc/contract/rewind';
import { createCarapace } from '../../compose';
import { silentLogger } from '../../platform/logger';
import { MemorySecretStore } from '../../platform/secrets';
import { testCarapace, type TestCarapace } from '../../test-support/carapace';
import { text, toolUse } from '../../test-support/engine';
import { tempDir } from '../../test-support/temp';
import { until, wireValue } from '../../test-support/wait';
import { readTranscript } from '../session/transcript-file';
import { hashContent } from '../tools/read-file-state';
import { historyDir } from './history-store';

/*
 * Rewind through the composed app: real sessions, real tools, the scripted Messages API reached
 * through the SDK, and the IPC router the window uses.
 */

const value = wireValue;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=p@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

/** Three turns that change files: Read+Edit a.txt, Write new.txt, Edit a.txt again. */
function threeEdits(project: string) {
  const a = path.join(project, 'a.txt');
  const created = path.join(project, 'new.txt');
  return {
    a,
    created,
    steps: [
      { when: { lastUserText: 'first' }, reply: { content: [toolUse('Read', { file_path: a }, 'r1')] } },
      {
        reply: {
          content: [toolUse('Edit', { file_path: a, old_string: 'one', new_string: 'two' }, 'e1')],
        },
      },
      { reply: { content: [text('Edited once.')] } },
      {
        when: { lastUserText: 'second' },
        reply: { content: [toolUse('Write', { file_path: created, content: 'new\n' }, 'w1')] },
      },
      { reply: { content: [text('Created.')] } },
      {
        when: { lastUserText: 'third' },
        reply: {
          content: [toolUse('Edit', { file_path: a, old_string: 'two', new_string: 'three' }, 'e2')],
        },
      },
      { reply: { content: [text('Edited twice.')] } },
      { times: true as const, reply: { content: [text('Fine.')] } },
    ],
  };
}

async function sessionWithThreeEdits(): Promise<{
  t: TestCarapace;
  project: string;
  id: string;
  a: string;
  created: string;
  call: (channel: string, input: unknown) => Promise<WireResult>;
}> {
  const project = realpathSync(tempDir('carapace-rewind-'));
  const script = threeEdits(project);
  const t = await testCarapace({ steps: script.steps });
  writeFileSync(script.a, 'one\n');
  git(project, 'init', '-q');
  git(project, 'add', 'a.txt');
  git(project, 'commit', '-q', '-m', 'start');
  const { workspace, sessions } = t.carapace.services;
  const projectId = workspace.open(project).project.id;
  const id = workspace.createSession(projectId).id;
  sessions.setPermissionMode(id, 'acceptEdits');
  for (const word of ['first', 'second', 'third']) {
    const before = sessions.get(id).transcript.length;
    sessions.send(id, word);
    await until(
      () => sessions.get(id).session.activity === 'idle' && sessions.get(id).transcript.length > before + 1,
    );
  }
  expect(readFileSync(script.a, 'utf8')).toBe('three\n');
  expect(readFileSync(script.created, 'utf8')).toBe('new\n');
  const call = (channel: string, input: unknown) =>
    t.carapace.router.dispatch(channel, input, { transport: 'websocket' });
  return { t, project, id, a: script.a, created: script.created, call };
}

function userMessageId(t: TestCarapace, id: string, word: string): string {
  const item = t.carapace.services.sessions
    .get(id)
    .transcript.find(
      (i) => i.kind === 'message' && i.origin === 'user' && JSON.stringify(i.content).includes(word),
    );
  if (!item) throw new Error(`no message "${word}"`);
  return item.id;
}

const userTexts = (t: TestCarapace, id: string) =>
  t.carapace.services.sessions
    .get(id)
    .transcript.flatMap((i) =>
      i.kind === 'message' && i.origin === 'user'
        ? i.content.flatMap((b) => (b.type === 'text' ? [b.text] : []))
        : [],
    );

describe('rewind', () => {
  it('after three edits, rewinding to the first message restores the files and cuts the transcript, also after a restart', async () => {
    const { t, id, a, created, call } = await sessionWithThreeEdits();
    const first = userMessageId(t, id, 'first');

    const plan = RewindPlan.parse(value(await call('rewind.plan', { sessionId: id, messageId: first })));
    expect(plan.files.map((f) => [path.basename(f.path), f.action, f.changedSince, f.refused])).toEqual([
      ['a.txt', 'restore', false, null],
      ['new.txt', 'delete', false, null],
    ]);
    expect(plan.headMoved).toBeNull();
    expect(plan.needsConfirmation).toBe(false);

    const out = RewindOutcome.parse(
      value(await call('rewind.run', { sessionId: id, messageId: first, confirmed: false })),
    );
    expect(readFileSync(a, 'utf8')).toBe('one\n');
    expect(existsSync(created)).toBe(false);
    expect(out.draft).toBe('first');
    expect(out.transcript.some((i) => i.id === first)).toBe(false);
    expect(userTexts(t, id)).toEqual([]);

    // The next turn's request carries none of the rewound conversation.
    const requests = t.api.requests.length;
    t.carapace.services.sessions.send(id, 'again');
    await until(
      () =>
        t.api.requests.length > requests && t.carapace.services.sessions.get(id).session.activity === 'idle',
    );
    const sent = JSON.stringify(t.api.requests[requests]?.body.messages);
    expect(sent).toContain('again');
    expect(sent).not.toContain('first');
    expect(sent).not.toContain('Edited');

    // Reopened from its file in a fresh app, the session reads the same (the cut line is honoured).
    await t.carapace.shutdown();
    const again = createCarapace({
      env: t.env,
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: '0.0.0-test',
      homeDir: t.userHome,
    });
    try {
      const projectId = again.services.workspace.open(path.dirname(a)).project.id;
      expect(again.services.sessions.list(projectId).map((s) => s.id)).toContain(id);
      const texts = again.services.sessions
        .get(id)
        .transcript.flatMap((i) =>
          i.kind === 'message' && i.origin === 'user'
            ? i.content.flatMap((b) => (b.type === 'text' ? [b.text] : []))
            : [],
        );
      expect(texts).toEqual(['again']);
    } finally {
      await again.shutdown();
    }
  });

  it("a person's edit after the agent's is listed as a conflict and nothing is written until confirmed; their commit stays and HEAD does not move", async () => {
    const { t, project, id, a, created, call } = await sessionWithThreeEdits();
    const first = userMessageId(t, id, 'first');
    // The person edits the agent's file and commits it.
    writeFileSync(a, 'mine\n');
    git(project, 'commit', '-q', '-am', 'person commit');
    const head = git(project, 'rev-parse', 'HEAD');
    const linesBefore = readFileSync(t.carapace.services.sessions.rewindable(id).session.file, 'utf8');

    const plan = RewindPlan.parse(value(await call('rewind.plan', { sessionId: id, messageId: first })));
    const aPlan = plan.files.find((f) => f.path === a);
    expect(aPlan).toMatchObject({ action: 'restore', changedSince: true, refused: null });
    expect(plan.files.find((f) => f.path === created)).toMatchObject({ changedSince: false });
    expect(plan.headMoved).toMatchObject({ now: head });
    expect(plan.headMoved?.then).not.toBe(head);
    expect(plan.needsConfirmation).toBe(true);

    // Not confirmed: refused, and nothing at all changed.
    const refused = await call('rewind.run', { sessionId: id, messageId: first, confirmed: false });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(readFileSync(a, 'utf8')).toBe('mine\n');
    expect(readFileSync(created, 'utf8')).toBe('new\n');
    expect(readFileSync(t.carapace.services.sessions.rewindable(id).session.file, 'utf8')).toBe(linesBefore);
    expect(userTexts(t, id)).toEqual(['first', 'second', 'third']);

    // Confirmed for what another dialog showed (nothing marked): refused too, nothing written.
    const stale = await call('rewind.run', {
      sessionId: id,
      messageId: first,
      confirmed: true,
      seen: { flagged: [], headMoved: true },
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(readFileSync(a, 'utf8')).toBe('mine\n');
    expect(existsSync(created)).toBe(true);

    // Confirmed: files back, and the person's replaced content is kept in the session folder.
    const out = RewindOutcome.parse(
      value(
        await call('rewind.run', {
          sessionId: id,
          messageId: first,
          confirmed: true,
          seen: { flagged: [a], headMoved: true },
        }),
      ),
    );
    expect(readFileSync(a, 'utf8')).toBe('one\n');
    expect(existsSync(created)).toBe(false);
    const dir = historyDir(t.carapace.services.sessions.rewindable(id).session.sessionDir);
    expect(readFileSync(path.join(dir, hashContent('mine\n')), 'utf8')).toBe('mine\n');
    expect(out.restored).toEqual([a]);
    // Git: the person's commit is still there and HEAD still names it.
    expect(git(project, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(project, 'log', '--format=%s')).toBe('person commit\nstart');
    expect(userTexts(t, id)).toEqual([]);
  });

  it('a crafted transcript cannot make rewind write into .git or outside the project', async () => {
    const project = realpathSync(tempDir('carapace-rewind-hostile-'));
    const outside = realpathSync(tempDir('carapace-outside-'));
    const t = await testCarapace({ steps: [{ times: true, reply: { content: [text('Hi.')] } }] });
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.send(id, 'hello');
    await until(
      () => sessions.get(id).session.activity === 'idle' && sessions.get(id).transcript.length >= 2,
    );
    const hello = userMessageId(t, id, 'hello');
    const { session } = sessions.rewindable(id);
    // A before-image that hashes right, so only the path checks stand in the way.
    const payload = '#!/bin/sh\necho pwned\n';
    mkdirSync(historyDir(session.sessionDir), { recursive: true });
    writeFileSync(path.join(historyDir(session.sessionDir), hashContent(payload)), payload);
    mkdirSync(path.join(project, '.git', 'hooks'), { recursive: true });
    // A link inside the project that leads out of it.
    execFileSync('ln', ['-s', outside, path.join(project, 'out')]);
    const targets = [
      path.join(project, '.git', 'hooks', 'pre-commit'),
      path.join(outside, 'x.sh'),
      path.join(project, 'out', 'y.sh'),
      path.join(project, '..', path.basename(outside), 'z.sh'),
      'relative.sh',
    ];
    for (const p of targets)
      appendFileSync(
        session.file,
        `${JSON.stringify({ type: 'file', path: p, beforeHash: hashContent(payload), afterHash: null, toolUseId: 'x', head: null, at: new Date().toISOString() })}\n`,
      );
    const call = (channel: string, input: unknown) =>
      t.carapace.router.dispatch(channel, input, { transport: 'websocket' });
    const plan = RewindPlan.parse(value(await call('rewind.plan', { sessionId: id, messageId: hello })));
    expect(plan.files).toHaveLength(targets.length);
    for (const f of plan.files) expect(f.refused).not.toBeNull();
    const out = RewindOutcome.parse(
      value(await call('rewind.run', { sessionId: id, messageId: hello, confirmed: true })),
    );
    expect(out.restored).toEqual([]);
    expect(out.skipped).toHaveLength(targets.length);
    expect(existsSync(targets[0] ?? '')).toBe(false);
    expect(existsSync(path.join(outside, 'x.sh'))).toBe(false);
    expect(existsSync(path.join(outside, 'y.sh'))).toBe(false);
    expect(existsSync(path.join(outside, 'z.sh'))).toBe(false);
  });

  it("a sub-agent's edits are in the session's file history: rewinding the message that started it undoes them", async () => {
    const project = realpathSync(tempDir('carapace-rewind-sub-'));
    const sub = path.join(project, 'sub.txt');
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'delegate' },
          reply: {
            content: [
              toolUse(
                'Agent',
                { description: 'write it', prompt: 'edit sub.txt please', subagent_type: 'general-purpose' },
                'a1',
              ),
            ],
          },
        },
        {
          when: { lastUserText: 'edit sub.txt please' },
          reply: { content: [toolUse('Write', { file_path: sub, content: 'from sub\n' }, 'sw1')] },
        },
        { when: { lastUserText: 'File created successfully' }, reply: { content: [text('sub done')] } },
        { times: true, reply: { content: [text('Delegated.')] } },
      ],
    });
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.setPermissionMode(id, 'acceptEdits');
    sessions.send(id, 'delegate');
    await until(
      () =>
        sessions.get(id).session.activity === 'idle' &&
        JSON.stringify(sessions.get(id).transcript).includes('Delegated.'),
    );
    expect(readFileSync(sub, 'utf8')).toBe('from sub\n');
    const call = (channel: string, input: unknown) =>
      t.carapace.router.dispatch(channel, input, { transport: 'websocket' });
    const first = userMessageId(t, id, 'delegate');
    const plan = RewindPlan.parse(value(await call('rewind.plan', { sessionId: id, messageId: first })));
    expect(plan.files.map((f) => [f.path, f.action, f.changedSince])).toEqual([[sub, 'delete', false]]);
    value(await call('rewind.run', { sessionId: id, messageId: first, confirmed: false }));
    expect(existsSync(sub)).toBe(false);
  });

  it("a teammate's edits are in the coordinator session's file history and undone by a rewind", async () => {
    const COORDINATOR = '# Coordinator mode';
    const t = await testCarapace({
      steps: [
        {
          when: { systemText: COORDINATOR, lastUserText: 'Team up' },
          reply: {
            content: [
              toolUse('TeamCreate', {
                workers: [{ name: 'alice', agent_type: 'general-purpose', instructions: 'Writes t.txt.' }],
              }),
            ],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Created a worker' },
          reply: {
            content: [toolUse('SendMessage', { to: 'alice', message: 'TASK-A' }, 'sa')],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Sent to alice' },
          reply: { content: [text('Waiting.')] },
        },
        {
          when: { systemText: '# Team member: alice', lastUserText: 'TASK-A' },
          reply: {
            content: [toolUse('Write', { file_path: 't.txt', content: 'T\n' }, 'wa')],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: '# Team member: alice', lastUserText: 'File created' },
          reply: { content: [text('alice wrote t.txt')] },
        },
        { when: { systemText: COORDINATOR }, times: true, reply: { content: [text('Thanks, team.')] } },
      ],
    });
    const project = realpathSync(t.project);
    const { workspace, sessions, broker } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    t.carapace.hub.subscribe((event, payload) => {
      if (event !== 'permissions.requested') return;
      const { request } = payload as { request: { id: string } };
      setTimeout(() => broker.respond({ requestId: request.id, decision: 'allow_once' }), 10);
    });
    const call = (channel: string, input: unknown) =>
      t.carapace.router.dispatch(channel, input, { transport: 'websocket' });
    const session = value(await call('sessions.create', { projectId, coordinator: true })) as { id: string };
    const id = session.id;
    sessions.send(id, 'Team up and do it');
    const written = path.join(project, 't.txt');
    await until(
      () =>
        existsSync(written) &&
        sessions.team(id).members.find((m) => m.name === 'alice')?.state === 'idle' &&
        sessions.get(id).session.activity === 'idle',
    );
    const first = userMessageId(t, id, 'Team up');
    const plan = RewindPlan.parse(value(await call('rewind.plan', { sessionId: id, messageId: first })));
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([[written, 'delete']]);
    value(await call('rewind.run', { sessionId: id, messageId: first, confirmed: false }));
    expect(existsSync(written)).toBe(false);
  });

  it('fork copies the conversation before a message into a new session under new ids', async () => {
    const { t, id, a, call } = await sessionWithThreeEdits();
    const third = userMessageId(t, id, 'third');
    const fork = ForkOutcome.parse(value(await call('rewind.fork', { sessionId: id, messageId: third })));
    expect(fork.draft).toBe('third');
    expect(fork.session.id).not.toBe(id);
    expect(userTexts(t, fork.session.id)).toEqual(['first', 'second']);
    const oldIds = new Set(t.carapace.services.sessions.get(id).transcript.map((i) => i.id));
    expect(t.carapace.services.sessions.get(fork.session.id).transcript.some((i) => oldIds.has(i.id))).toBe(
      false,
    );
    // The original is untouched, and so are the files.
    expect(userTexts(t, id)).toEqual(['first', 'second', 'third']);
    expect(readFileSync(a, 'utf8')).toBe('three\n');
    const file = t.carapace.services.sessions.rewindable(fork.session.id).session.file;
    expect(readTranscript(file).problems).toEqual([]);
  });
});
