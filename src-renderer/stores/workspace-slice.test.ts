import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { SessionSummary } from '@shared/domain/session';
import {
  badgeFor,
  createWorkspaceSlice,
  initialWorkspaceState,
  isInView,
  tiledSessions,
} from './workspace-slice';

const session = (over: Partial<SessionSummary>): SessionSummary => ({
  id: 's',
  projectId: 'p',
  title: 't',
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

describe('badges', () => {
  it('shows the most urgent state first', () => {
    expect(badgeFor(session({ waitingForUser: true, activity: 'streaming' }), true)).toBe('waiting');
    expect(badgeFor(session({ activity: 'error' }), true)).toBe('error');
    expect(badgeFor(session({ activity: 'thinking' }), true)).toBe('working');
    expect(badgeFor(session({}), true)).toBe('unseen');
    expect(badgeFor(session({}), false)).toBe('idle');
  });

  it('counts a session as in view only when its panel is on screen', () => {
    const state = { ...initialWorkspaceState, tabs: { open: ['a', 'b'], active: 'a' } };
    expect(isInView(state, 'a', false)).toBe(true);
    expect(isInView(state, 'b', false)).toBe(false);
    expect(isInView(state, 'a', true)).toBe(false);
    // Side by side shows the pinned sessions, not every open one.
    expect(isInView({ ...state, layout: 'grid' }, 'b', false)).toBe(false);
    expect(isInView({ ...state, layout: 'grid', tiled: ['b'] }, 'b', false)).toBe(true);
    expect(isInView({ ...state, layout: 'grid', tiled: ['b'] }, 'a', false)).toBe(true);
  });
});

describe('side by side', () => {
  const sessions = {
    a: session({ id: 'a' }),
    b: session({ id: 'b', waitingForUser: true }),
    c: session({ id: 'c', activity: 'error' }),
    d: session({ id: 'd', activity: 'streaming' }),
  };
  const tabs = { open: ['a', 'b', 'c', 'd'], active: 'd' };

  it('tiles the pinned open sessions in tab order, and the active one', () => {
    expect(tiledSessions({ tabs, sessions, tiled: ['d', 'a', 'closed'] })).toEqual(['a', 'd']);
    expect(tiledSessions({ tabs, sessions, tiled: ['c', 'a'] })).toEqual(['a', 'c', 'd']);
  });

  it('with none pinned, tiles those needing the person and the active one', () => {
    expect(tiledSessions({ tabs, sessions, tiled: [] })).toEqual(['b', 'c', 'd']);
    expect(tiledSessions({ tabs: { open: ['a'], active: 'a' }, sessions, tiled: [] })).toEqual(['a']);
    expect(tiledSessions({ tabs: { open: [], active: null }, sessions, tiled: [] })).toEqual([]);
  });

  it('pins and unpins', () => {
    const store = create(createWorkspaceSlice);
    store.getState().toggleTiled('a');
    store.getState().toggleTiled('b');
    store.getState().toggleTiled('a');
    expect(store.getState().tiled).toEqual(['b']);
  });

  const snapshot = (projectId: string, ids: string[]) => ({
    project: { id: projectId, path: `/${projectId}`, name: projectId, lastOpenedAt: '' },
    sessions: ids.map((id) => session({ id, projectId })),
    tabs: { open: ids, active: ids[0] ?? null },
  });

  it('keeps pins across a reload, per project, forgetting sessions that are gone', () => {
    localStorage.clear();
    const before = create(createWorkspaceSlice);
    before.getState().applySnapshot(snapshot('p', ['a', 'b', 'c']));
    before.getState().setTiled(['a', 'b', 'c']);
    before.getState().toggleTiled('b');
    before.getState().applySnapshot(snapshot('q', ['x']));
    expect(before.getState().tiled).toEqual([]);

    // A new store is what a reloaded page starts with; "c" was deleted meanwhile.
    const after = create(createWorkspaceSlice);
    after.getState().applySnapshot(snapshot('p', ['a', 'b']));
    expect(after.getState().tiled).toEqual(['a']);
    // Forgotten for good: it does not come back with a session of the same id.
    after.getState().applySnapshot(snapshot('p', ['a', 'c']));
    expect(after.getState().tiled).toEqual(['a']);
  });

  it('starts with no pins when what is stored is not a list of ids', () => {
    localStorage.setItem('carapace.pinned', '{"p": "a", "q": [1, "x"]');
    const store = create(createWorkspaceSlice);
    store.getState().applySnapshot(snapshot('p', ['a']));
    expect(store.getState().tiled).toEqual([]);
    localStorage.setItem('carapace.pinned', '{"p": "a", "q": [1, "x"]}');
    store.getState().applySnapshot(snapshot('q', ['x']));
    expect(store.getState().tiled).toEqual(['x']);
  });
});

describe('switching tabs before the main process answers', () => {
  const storeWith = (open: string[], active: string) => {
    const store = create(createWorkspaceSlice);
    store.setState({ tabs: { open, active } });
    return store;
  };

  it('shows the switched-to tab at once and keeps it through an older tabs.changed', () => {
    const store = storeWith(['a', 'b', 'c'], 'a');
    store.getState().activateLocally('b');
    expect(store.getState().tabs.active).toBe('b');
    // An answer sent before the switch was seen (still naming "a") does not pull the view back.
    store.getState().receiveTabs({ open: ['a', 'b', 'c'], active: 'a' });
    expect(store.getState().tabs.active).toBe('b');
    // Once the switch is answered, the main process's word is final again.
    store.getState().settleActivation('b');
    store.getState().receiveTabs({ open: ['a', 'b', 'c'], active: 'c' });
    expect(store.getState().tabs.active).toBe('c');
  });

  it('lets a later switch win over an earlier one being answered', () => {
    const store = storeWith(['a', 'b', 'c'], 'a');
    store.getState().activateLocally('b');
    store.getState().activateLocally('c');
    store.getState().receiveTabs({ open: ['a', 'b', 'c'], active: 'b' });
    store.getState().settleActivation('b');
    expect(store.getState().tabs.active).toBe('c');
    expect(store.getState().pendingActive).toBe('c');
  });

  it('follows the main process when the pending tab was closed meanwhile', () => {
    const store = storeWith(['a', 'b'], 'a');
    store.getState().activateLocally('b');
    store.getState().receiveTabs({ open: ['a'], active: 'a' });
    expect(store.getState().tabs).toEqual({ open: ['a'], active: 'a' });
  });

  it('ignores a switch to a tab that is not open', () => {
    const store = storeWith(['a'], 'a');
    store.getState().activateLocally('z');
    expect(store.getState().tabs.active).toBe('a');
    expect(store.getState().pendingActive).toBeNull();
  });
});
