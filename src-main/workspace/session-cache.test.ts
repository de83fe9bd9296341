import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '@shared/ipc/contract';
import { testCarapace } from '../test-support/carapace';
import { text, toolUse } from '../test-support/engine';
import type { EventHub } from './event-hub';
import { HYDRATED_BOUND, SessionCache } from './session-cache';

describe('SessionCache', () => {
  function cache(bound: number, running: Set<string> = new Set()) {
    const evicted: string[] = [];
    const c = new SessionCache<string>({
      bound,
      evictable: (id) => !running.has(id),
      evicted: (id) => evicted.push(id),
    });
    return { c, evicted };
  }

  it('drops the least recently used first, and counts use, not reads', () => {
    const { c, evicted } = cache(3);
    for (const id of ['a', 'b', 'c']) c.set(id, id);
    c.touch('a');
    c.get('b'); // a read is not a use
    c.set('d', 'd');
    expect(evicted).toEqual(['b']);
    c.set('e', 'e');
    expect(evicted).toEqual(['b', 'c']);
    expect(c.ids()).toEqual(['a', 'd', 'e']);
  });

  it('never drops a running session, and running ones do not count against the bound', () => {
    const running = new Set(['a', 'b']);
    const { c, evicted } = cache(2, running);
    for (const id of ['a', 'b', 'c', 'd', 'e']) c.set(id, id);
    expect(evicted).toEqual(['c']);
    expect(c.ids()).toEqual(['a', 'b', 'd', 'e']);
    // Once a run ends, the next trim may drop it: it is now the least recently used.
    running.delete('a');
    expect(c.trim()).toEqual(['a']);
  });

  it('a delete forgets without reporting an eviction', () => {
    const { c, evicted } = cache(1);
    c.set('a', 'a');
    expect(c.delete('a')).toBe(true);
    c.set('b', 'b');
    expect(evicted).toEqual([]);
  });
});

type Recorded = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

function record(hub: EventHub) {
  const events: Recorded[] = [];
  hub.subscribe((event, payload) => events.push({ event, payload } as Recorded));
  return events;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('sessions in memory', () => {
  it('drops idle sessions past the bound and reads them back exactly as they were; a running one stays', async () => {
    const t = await testCarapace({
      steps: [
        { when: { lastUserText: 'quick' }, reply: { content: [{ type: 'text', text: 'Done quickly.' }] } },
        {
          when: { lastUserText: 'slow' },
          reply: { content: [{ type: 'text', text: 'Slow reply. '.repeat(40) }], chunkChars: 4, delayMs: 15 },
        },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const idle = (id: string) =>
      events.some(
        (e) =>
          e.event === 'sessions.changed' &&
          e.payload.session.id === id &&
          e.payload.session.activity === 'idle' &&
          e.payload.session.messageCount > 0,
      );

    const first = workspace.createSession(project.id).id;
    sessions.send(first, 'quick');
    await until(() => idle(first));
    const before = sessions.get(first);
    const runner = workspace.createSession(project.id).id;
    sessions.send(runner, 'slow');

    const others = Array.from({ length: HYDRATED_BOUND + 2 }, () => workspace.createSession(project.id).id);
    // The first went (least recently used, idle); the running one stayed, the newest are in.
    expect(sessions.hydrated()).not.toContain(first);
    expect(sessions.hydrated()).toContain(runner);
    expect(sessions.hydrated()).toEqual(expect.arrayContaining(others.slice(-HYDRATED_BOUND)));
    // The bound counts idle sessions: the running one and the one on screen (the newest) are extra.
    expect(sessions.hydrated().length).toBeLessThanOrEqual(HYDRATED_BOUND + 2);
    // Still listed as it was, from the index.
    expect(workspace.snapshot(project.id).sessions.find((s) => s.id === first)).toMatchObject({
      title: before.session.title,
      messageCount: before.session.messageCount,
    });

    // Read back from its file when asked for: the same transcript and summary.
    const after = sessions.get(first);
    expect(after.transcript).toEqual(before.transcript);
    expect(after.session).toEqual(before.session);
    expect(sessions.hydrated()).toContain(first);

    // The running one finished its reply whole while others came and went.
    await until(() => idle(runner));
    const reply = sessions.get(runner).transcript.at(-1);
    expect(reply?.kind === 'message' ? reply.content : null).toEqual([
      { type: 'text', text: 'Slow reply. '.repeat(40) },
    ]);
  });

  it('keeps a session whose shell moved away from the project root (the directory lives only in memory)', async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'go down' },
          reply: { content: [toolUse('Bash', { command: 'cd sub' }, 'b1')], stop_reason: 'tool_use' },
        },
        // Steps without `when` answer the next request in order: here, each command's result.
        { reply: { content: [text('Moved down.')] } },
        {
          when: { lastUserText: 'go up' },
          reply: { content: [toolUse('Bash', { command: 'cd ..' }, 'b2')], stop_reason: 'tool_use' },
        },
        { reply: { content: [text('Moved up.')] } },
      ],
    });
    mkdirSync(path.join(t.project, 'sub'));
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const moved = workspace.createSession(project.id).id;
    const settle = async (word: string) => {
      const requests = t.api.requests.length;
      sessions.send(moved, word);
      await until(
        () => t.api.requests.length >= requests + 2 && sessions.get(moved).session.activity === 'idle',
      );
    };
    await settle('go down');
    const fill = () => {
      for (let i = 0; i < HYDRATED_BOUND + 2; i++) sessions.get(workspace.createSession(project.id).id);
    };
    fill();
    expect(sessions.hydrated()).toContain(moved);

    // Back at the root, it may go like any other idle session.
    await settle('go up');
    fill();
    expect(sessions.hydrated()).not.toContain(moved);
  });

  it('lets a background session go once it has finished, shown from then on as an ordinary one', async () => {
    const t = await testCarapace({
      steps: [
        { reply: { content: [text('Done in the background. '.repeat(20))], chunkChars: 8, delayMs: 5 } },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const away = workspace.createSession(project.id).id;
    sessions.send(away, 'work on your own');
    workspace.setBackground(away, true);
    const fill = () => {
      for (let i = 0; i < HYDRATED_BOUND + 2; i++) sessions.get(workspace.createSession(project.id).id);
    };
    await until(() => sessions.get(away).session.activity === 'idle');
    expect(sessions.get(away).session.background).toBe(true);
    fill();
    expect(sessions.hydrated()).not.toContain(away);
    // The window hears it is no longer "in the background", as the list now says.
    const last = events.filter((e) => e.event === 'sessions.changed' && e.payload.session.id === away).at(-1);
    expect(last?.event === 'sessions.changed' && last.payload.session).toMatchObject({
      background: false,
      activity: 'idle',
    });
    expect(sessions.list(project.id).find((x) => x.id === away)?.background).toBe(false);
  });

  it('keeps the session on screen however long ago it was used', async () => {
    const t = await testCarapace();
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const shown = workspace.createSession(project.id).id;
    const rest = Array.from({ length: HYDRATED_BOUND + 2 }, () => workspace.createSession(project.id).id);
    // Its tab is clicked and the window asks for it; then every other one is used once.
    workspace.activateTab(project.id, shown);
    sessions.get(shown);
    for (const id of rest) sessions.get(id);
    expect(sessions.hydrated()).toContain(shown);
    expect(sessions.hydrated()).not.toContain(rest[0]);
  });
});
