import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '@shared/ipc/contract';
import { messageText, type MessageItem } from '@shared/domain/messages';
import { testCarapace } from '../test-support/carapace';
import { createCarapace } from '../compose';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { projectSlug } from '../platform/paths';
import type { EventHub } from './event-hub';
import type { SessionSummary } from '@shared/domain/session';

type Recorded = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

function record(hub: EventHub) {
  const events: Recorded[] = [];
  hub.subscribe((event, payload) => events.push({ event, payload } as Recorded));
  return events;
}

/** Resolves when the session's turn has ended (its activity leaves thinking/streaming). */
function settled(events: Recorded[], sessionId: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const last = events
        .filter((e) => e.event === 'sessions.changed' && e.payload.session.id === sessionId)
        .at(-1);
      if (
        last?.event === 'sessions.changed' &&
        !['thinking', 'streaming'].includes(last.payload.session.activity) &&
        events.some((e) => e.event === 'transcript.appended')
      )
        resolve();
      else setTimeout(check, 5);
    };
    check();
  });
}

describe('SessionManager', () => {
  it('streams a reply, persists it as JSONL, and reloads it from disk in a new process', async () => {
    const t = await testCarapace({
      steps: [
        {
          reply: {
            content: [{ type: 'text', text: 'Hi! I am scripted.' }],
            chunkChars: 3,
            usage: { input_tokens: 10, output_tokens: 5 },
          },
        },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    expect(session.model).toBe('claude-sonnet-4-5');
    sessions.send(session.id, 'hello');
    await settled(events, session.id);

    const { transcript, session: summary } = sessions.get(session.id);
    const reply = transcript.at(-1) as MessageItem;
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete', stopReason: 'end_turn' });
    expect(messageText(reply.content)).toBe('Hi! I am scripted.');
    expect(summary).toMatchObject({
      activity: 'idle',
      title: 'hello',
      usage: { inputTokens: 10, outputTokens: 5 },
      costKind: 'priced',
    });
    expect(summary.costUsd).toBeCloseTo((10 * 3 + 5 * 15) / 1e6, 12);

    // Deltas arrived batched and add up to the final text; the final form came after them.
    const batches = events.filter((e) => e.event === 'stream.batch');
    const streamed = batches
      .flatMap((e) => ('deltas' in e.payload ? e.payload.deltas.map((d) => d.text) : []))
      .join('');
    expect(streamed).toBe('Hi! I am scripted.');
    const lastBatch = events.findLastIndex((e) => e.event === 'stream.batch');
    const update = events.findIndex((e) => e.event === 'transcript.updated');
    expect(update).toBeGreaterThan(lastBatch);

    // The request carried the conversation through the real SDK, the cache breakpoint on its end.
    expect(t.api.requests[0]?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] },
    ]);

    const dir = path.join(t.home, 'projects', project.id);
    const file = path.join(dir, `${session.id}.jsonl`);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual([
      'session',
      'mode',
      'turn',
      'item',
      'usage',
      'item',
      'turn',
      'cost',
    ]);

    const again = createCarapace({
      env: { CARAPACE_HOME: t.home },
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: 't',
      homeDir: t.userHome,
    });
    const reopened = again.services.workspace.open(t.project);
    expect(reopened.sessions.map((s) => s.id)).toEqual([session.id]);
    expect(reopened.tabs.open).toEqual([session.id]);
    expect(
      messageText((again.services.sessions.get(session.id).transcript.at(-1) as MessageItem).content),
    ).toBe('Hi! I am scripted.');
    await again.shutdown();
  });

  it('a snapshot taken mid-stream holds no text still to come as a delta (nothing is shown twice)', async () => {
    const reply = 'The quick brown fox jumps over the lazy dog. '.repeat(8);
    const t = await testCarapace({
      steps: [{ reply: { content: [{ type: 'text', text: reply }], chunkChars: 3, delayMs: 3 } }],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const id = workspace.createSession(project.id).id;
    sessions.send(id, 'talk');
    // What a window that opens the session now would show: the snapshot, then the deltas after it.
    const views: { item: string; text: string; from: number }[] = [];
    while (sessions.get(id).session.activity !== 'idle') {
      const last = sessions.get(id).transcript.at(-1);
      if (last?.kind === 'message' && last.role === 'assistant')
        views.push({ item: last.id, text: messageText(last.content), from: events.length });
      await new Promise((resolve) => setTimeout(resolve, 7));
    }
    const later = (item: string, from: number) =>
      events
        .slice(from)
        .flatMap((e) => (e.event === 'stream.batch' ? e.payload.deltas : []))
        .filter((d) => d.itemId === item)
        .map((d) => d.text)
        .join('');
    expect(views.length).toBeGreaterThan(3);
    for (const v of views) expect(v.text + later(v.item, v.from)).toBe(reply);
  });

  it('tolerates a torn last line and a corrupt middle line, and says so in the transcript', async () => {
    const t = await testCarapace();
    const { workspace } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    await t.carapace.shutdown();
    const file = path.join(t.home, 'projects', project.id, `${session.id}.jsonl`);
    const item = {
      kind: 'message',
      id: 'u1',
      role: 'user',
      content: [{ type: 'text', text: 'kept' }],
      createdAt: new Date().toISOString(),
      status: 'complete',
    };
    appendFileSync(
      file,
      `{not json}\n${JSON.stringify({ type: 'item', item })}\n{"type":"item","item":{"kind":"mess`,
    );

    const again = createCarapace({
      env: { CARAPACE_HOME: t.home },
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: 't',
      homeDir: t.userHome,
    });
    again.services.workspace.open(t.project);
    const { transcript } = again.services.sessions.get(session.id);
    expect(transcript.filter((i) => i.kind === 'message')).toHaveLength(1);
    const notices = transcript.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    expect(notices).toEqual([
      expect.stringContaining('Line 3 is not valid JSON'),
      expect.stringContaining('The last line (5) was cut off'),
    ]);
    // The file itself is left as it was: nothing is lost.
    expect(readFileSync(file, 'utf8')).toContain('{not json}');
    await again.shutdown();
  });

  it('moves a torn last line aside on open, so the next message is not glued onto it and survives a reload', async () => {
    const t = await testCarapace({
      steps: [{ reply: { content: [{ type: 'text', text: 'After the tear.' }] } }],
    });
    const { workspace } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    await t.carapace.shutdown();
    const file = path.join(t.home, 'projects', project.id, `${session.id}.jsonl`);
    const item = {
      kind: 'message',
      id: 'u1',
      role: 'user',
      content: [{ type: 'text', text: 'kept' }],
      createdAt: new Date().toISOString(),
      status: 'complete',
    };
    const torn = '{"type":"item","item":{"kind":"mess';
    appendFileSync(file, `${JSON.stringify({ type: 'item', item })}\n${torn}`);
    const reopen = () =>
      createCarapace({
        env: { CARAPACE_HOME: t.home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: t.api.url },
        secrets: new MemorySecretStore(),
        logger: silentLogger,
        version: 't',
        homeDir: t.userHome,
      });

    const second = reopen();
    const events = record(second.hub);
    second.services.workspace.open(t.project);
    const notices = second.services.sessions
      .get(session.id)
      .transcript.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    expect(notices).toEqual([
      expect.stringMatching(/The last line \(4\) was cut off.* moved to [-0-9a-f]+\.jsonl\.torn/),
    ]);
    second.services.sessions.send(session.id, 'after the tear');
    await settled(events, session.id);
    await second.shutdown();

    // A fresh process reads every message back, the new ones included, and has nothing to report.
    const third = reopen();
    third.services.workspace.open(t.project);
    const { transcript } = third.services.sessions.get(session.id);
    expect(
      transcript.map((i) => (i.kind === 'message' ? `${i.role}: ${messageText(i.content)}` : i.kind)),
    ).toEqual(['user: kept', 'user: after the tear', 'assistant: After the tear.']);
    expect(readFileSync(`${file}.torn`, 'utf8')).toBe(`${torn}\n`);
    await third.shutdown();
  });

  it('turns an API error into a readable notice and an error state, and keeps the session usable', async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'first' },
          reply: { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
        },
        { when: { lastUserText: 'second' }, reply: { content: [{ type: 'text', text: 'fine now' }] } },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const session = workspace.createSession(workspace.open(t.project).project.id);
    sessions.send(session.id, 'first');
    await settled(events, session.id);
    const after = sessions.get(session.id);
    expect(after.session.activity).toBe('error');
    expect(after.session.lastError).toMatch(
      /^Authentication failed \(HTTP 401\): invalid x-api-key\. Check ANTHROPIC_API_KEY/,
    );
    expect(after.transcript.at(-1)).toMatchObject({
      kind: 'notice',
      level: 'error',
      code: 'authentication_error',
    });

    events.length = 0;
    sessions.send(session.id, 'second');
    await settled(events, session.id);
    expect(sessions.get(session.id).session.activity).toBe('idle');
    // Two user messages in a row (the first got no reply) reach the API merged into one turn.
    expect(t.api.requests[1]?.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('retries a connection dropped mid-stream, withdrawing what the broken attempt showed', async () => {
    const t = await testCarapace({
      steps: [
        {
          reply: {
            content: [{ type: 'text', text: 'abcdefghijklmnopqrstuvwxyz' }],
            chunkChars: 2,
            dropAfterEvents: 6,
          },
        },
        { reply: { content: [{ type: 'text', text: 'complete answer' }] } },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const session = workspace.createSession(workspace.open(t.project).project.id);
    sessions.send(session.id, 'go');
    await settled(events, session.id);
    const { transcript, session: s } = sessions.get(session.id);
    const replies = transcript.filter(
      (i): i is MessageItem => i.kind === 'message' && i.role === 'assistant',
    );
    expect(replies.map((r) => messageText(r.content))).toEqual(['complete answer']);
    expect(s.activity).toBe('idle');
    expect(
      transcript.some((i) => i.kind === 'notice' && i.code === 'retry' && /connection dropped/.test(i.text)),
    ).toBe(true);
    expect(events.some((e) => e.event === 'transcript.removed')).toBe(true);
  });

  it('stops a streaming reply on request, keeping the partial text as interrupted', async () => {
    const t = await testCarapace({
      steps: [{ reply: { content: [{ type: 'text', text: 'x'.repeat(400) }], chunkChars: 4, delayMs: 10 } }],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const session = workspace.createSession(workspace.open(t.project).project.id);
    sessions.send(session.id, 'long please');
    expect(() => sessions.send(session.id, 'again')).toThrow(/still working/);
    // Stop once text is flowing (not after a guessed delay): the partial reply must have content.
    await expect.poll(() => events.some((e) => e.event === 'stream.batch'), { timeout: 10_000 }).toBe(true);
    expect(sessions.stop(session.id)).toEqual({ stopped: true });
    await settled(events, session.id);
    const reply = sessions
      .get(session.id)
      .transcript.find((i) => i.kind === 'message' && i.role === 'assistant') as MessageItem;
    expect(reply.status).toBe('interrupted');
    expect(messageText(reply.content).length).toBeGreaterThan(0);
    expect(messageText(reply.content).length).toBeLessThan(400);
    expect(sessions.get(session.id).session.activity).toBe('idle');
  });

  it('lists sessions from a project folder even when a transcript lost its header line', async () => {
    const t = await testCarapace();
    const { workspace, sessions } = t.carapace.services;
    const dir = path.join(t.home, 'projects', projectSlug(t.project));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, '11111111-2222-3333-4444-555555555555.jsonl'),
      '{"type":"title","title":"Orphan","at":"2026-01-01T00:00:00.000Z"}\n',
    );
    const project = workspace.open(t.project).project;
    expect(sessions.list(project.id).map((s) => s.title)).toEqual(['Orphan']);
    expect(readdirSync(dir)).toContain('11111111-2222-3333-4444-555555555555.jsonl');
  });
});

describe('session index', () => {
  it('is rebuilt from the transcripts when deleted or corrupt: every session listed again with title, time and cost', async () => {
    const t = await testCarapace({
      steps: [
        {
          reply: {
            content: [{ type: 'text', text: 'priced reply' }],
            usage: { input_tokens: 2000, output_tokens: 1000 },
          },
        },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(t.project).project.id;
    const worked = workspace.createSession(projectId);
    const named = workspace.createSession(projectId);
    sessions.send(worked.id, 'do the work');
    await settled(events, worked.id);
    sessions.rename(named.id, 'Named by hand');
    const before = sessions.list(projectId);
    await t.carapace.shutdown();

    const indexFile = path.join(t.home, 'projects', projectId, 'sessions-index.json');
    expect(existsSync(indexFile)).toBe(true);
    for (const damage of ['delete', 'corrupt'] as const) {
      if (damage === 'delete') rmSync(indexFile);
      else writeFileSync(indexFile, '{"version": 1, "sessions": {"x": 12');
      const again = createCarapace({
        env: { CARAPACE_HOME: t.home },
        secrets: new MemorySecretStore(),
        logger: silentLogger,
        version: 't',
        homeDir: t.userHome,
      });
      const listed = again.services.workspace.open(t.project).sessions;
      const pick = (s: SessionSummary) => [
        s.id,
        s.title,
        s.createdAt,
        s.updatedAt,
        s.costUsd,
        s.costKind,
        s.usage,
      ];
      expect(listed.map(pick).sort()).toEqual(before.map(pick).sort());
      expect(listed.find((s) => s.id === worked.id)).toMatchObject({
        title: 'do the work',
        costKind: 'priced',
        costUsd: (2000 * 3 + 1000 * 15) / 1e6,
      });
      expect(listed.find((s) => s.id === named.id)?.title).toBe('Named by hand');
      await again.shutdown();
    }
    expect(JSON.parse(readFileSync(indexFile, 'utf8'))).toMatchObject({ version: 1 });
  });
});
