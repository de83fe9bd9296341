import { beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem } from '@shared/domain/messages';
import type { SessionSummary } from '@shared/domain/session';
import { createAppStore } from './store';
import { isInView } from './workspace-slice';
import { RecentSessions, TRANSCRIPT_BOUND, transcriptsToEvict } from './transcript-eviction';

const summary = (id: string, over: Partial<SessionSummary> = {}): SessionSummary => ({
  id,
  projectId: 'p',
  title: id,
  model: 'demo',
  permissionMode: 'default',
  activity: 'idle',
  waitingForUser: false,
  createdAt: '',
  updatedAt: '',
  usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  costUsd: 0,
  costKind: 'demo',
  messageCount: 0,
  lastError: null,
  coordinator: false,
  background: false,
  ...over,
});

const message = (id: string, text: string): MessageItem => ({
  kind: 'message',
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
  createdAt: '',
  status: 'complete',
});

describe('transcriptsToEvict', () => {
  const recent = (...mostRecentLast: string[]) => {
    const r = new RecentSessions();
    for (const id of mostRecentLast) r.touch(id);
    return r;
  };
  const none = () => false;
  const one = () => 1;

  it('drops the least recently seen beyond the bound, never-seen ones first', () => {
    const order = recent('a', 'b', 'c', 'd', 'e');
    const loaded = ['x', 'a', 'b', 'c', 'd', 'e'];
    expect(
      transcriptsToEvict({ loaded, recent: order, visible: none, working: none, size: one, bound: 3 }),
    ).toEqual(['x', 'a', 'b']);
  });

  it('counts the bound in items: one long transcript pushes out several short ones', () => {
    const order = recent('a', 'b', 'c', 'long');
    const size = (id: string) => (id === 'long' ? 90 : 10);
    expect(
      transcriptsToEvict({
        loaded: ['a', 'b', 'c', 'long'],
        recent: order,
        visible: none,
        working: none,
        size,
        bound: 100,
      }),
    ).toEqual(['a', 'b']);
  });

  it('never drops what is on screen or working, and those do not count against the bound', () => {
    const order = recent('a', 'b', 'c', 'd');
    const result = transcriptsToEvict({
      loaded: ['a', 'b', 'c', 'd'],
      recent: order,
      visible: (id) => id === 'a',
      working: (id) => id === 'b',
      size: one,
      bound: 1,
    });
    expect(result).toEqual(['c']);
  });

  it('touching moves a session to the front', () => {
    const order = recent('a', 'b', 'c');
    order.touch('a');
    expect(order.list()).toEqual(['a', 'c', 'b']);
  });
});

describe('transcripts in the window', () => {
  let store = createAppStore();
  const state = () => store.getState();
  const loaded = () => Object.keys(state().transcripts).sort();
  const ids = Array.from({ length: 20 }, (_, i) => `s${String(i).padStart(2, '0')}`);

  beforeEach(() => {
    store = createAppStore();
    store.setState({
      layout: 'tabs',
      sessions: Object.fromEntries(ids.map((id) => [id, summary(id)])),
      tabs: { open: ids, active: ids[0] ?? null },
    });
  });

  /** Sessions of this many items: the bound holds 5 of them besides the one on screen. */
  const LONG = TRANSCRIPT_BOUND / 5;
  const long = (id: string) => [
    ...Array.from({ length: LONG - 1 }, () => message(`${id}-filler`, 'filler')),
    message(`${id}-m`, `text of ${id}`),
  ];

  /** Shows each tab in turn, loading its transcript as the window does when one is missing. */
  function visitAll() {
    for (const id of ids) {
      store.setState((s) => ({ tabs: { ...s.tabs, active: id } }));
      if (!state().transcripts[id]) state().setTranscript(id, id, long(id));
    }
  }

  it('keeps the shown tab and the most recently shown ones, up to the bound', () => {
    visitAll();
    const kept = ids.slice(-6);
    expect(loaded()).toEqual(kept);
    // Back to an evicted one: fetched again, it is the same as before; the oldest kept one goes.
    const again = ids[0] ?? '';
    store.setState((s) => ({ tabs: { ...s.tabs, active: again } }));
    state().setTranscript(again, again, long(again));
    expect(state().transcripts[again]?.[again]?.items).toEqual(long(again));
    expect(loaded()).toEqual([again, ...kept.slice(1)].sort());
  });

  it('keeps many short transcripts: switching among 20 tabs of a few messages needs no fetch', () => {
    for (const id of ids) {
      store.setState((s) => ({ tabs: { ...s.tabs, active: id } }));
      state().setTranscript(id, id, [message(`${id}-m`, 'short')]);
    }
    expect(loaded()).toEqual(ids);
  });

  it('keeps working sessions however long ago they were shown', () => {
    store.setState((s) => ({ sessions: { ...s.sessions, s00: summary('s00', { activity: 'streaming' }) } }));
    visitAll();
    expect(loaded()).toContain('s00');
    expect(loaded()).not.toContain('s01');
  });

  it('keeps every tile side by side, however many', () => {
    visitAll();
    store.setState({ layout: 'grid' });
    const tiles = ids.filter((id) => isInView(state(), id, false));
    for (const id of tiles) if (!state().transcripts[id]) state().setTranscript(id, id, []);
    for (const id of tiles) expect(loaded()).toContain(id);
  });

  it("drops a closed tab's transcripts at once", () => {
    state().setTranscript('s00', 's00', [message('m', 'x')]);
    state().setTranscript('s00', 'agent', [message('n', 'y')]);
    store.setState((s) => ({ tabs: { ...s.tabs, active: 's01' } }));
    expect(loaded()).toContain('s00');
    store.setState((s) => ({ tabs: { open: s.tabs.open.filter((id) => id !== 's00'), active: 's01' } }));
    expect(state().transcripts['s00']).toBeUndefined();
  });

  it("keeps a closed tab's transcript while its session works, so its live output is not lost", () => {
    store.setState((s) => ({ sessions: { ...s.sessions, s00: summary('s00', { activity: 'streaming' }) } }));
    state().setTranscript('s00', 's00', [message('m', 'x')]);
    store.setState((s) => ({ tabs: { open: s.tabs.open.filter((id) => id !== 's00'), active: 's01' } }));
    expect(state().transcripts['s00']?.['s00']?.items).toHaveLength(1);
  });

  it('drops live tool output once its session stops working', () => {
    store.setState((s) => ({ sessions: { ...s.sessions, s00: summary('s00', { activity: 'tools' }) } }));
    state().setTranscript('s00', 's00', [message('m', 'x')]);
    state().applyDeltas([], [{ sessionId: 's00', agentId: 's00', toolUseId: 't1', text: 'output' }]);
    expect(state().transcripts['s00']?.['s00']?.progress).toEqual({ t1: 'output' });
    store.setState((s) => ({ sessions: { ...s.sessions, s00: summary('s00', { activity: 'idle' }) } }));
    expect(state().transcripts['s00']?.['s00']?.progress).toEqual({});
    expect(state().transcripts['s00']?.['s00']?.items).toHaveLength(1);
  });
});
