import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRequestView } from '@shared/domain/permissions';
import type { ProjectInfo } from '@shared/domain/project';
import type { SessionSummary } from '@shared/domain/session';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from './client';
import { placeOf } from '../stores/attention-slice';
import { useStore } from '../stores/store';
import { Inbox } from '../features/permissions/Inbox';
import { sessionSummary } from '../test-support/session-summary';
import {
  announcedCount,
  onPermissionRequested,
  onPermissionResolved,
  onSessionRemoved,
  onWatchedSession,
  resetAnnounced,
  sessionOnScreen,
} from './attention';

const project = (id: string): ProjectInfo => ({ id, path: `/work/${id}`, name: id, lastOpenedAt: '' });
const A = project('alpha');
const B = project('beta');

const session = (id: string, projectId: string, over: Partial<SessionSummary> = {}) =>
  sessionSummary({ id, projectId, title: `${id} title`, activity: 'tools', ...over });

const request = (id: string, sessionId: string): PermissionRequestView => ({
  id,
  sessionId,
  toolName: 'Write',
  toolUseId: `tu-${id}`,
  summary: `${id}.txt`,
  reason: 'Writes a file',
  suggestions: [],
  input: {},
  createdAt: '',
});

/**
 * The main process as the renderer sees it: answers the few requests these tests make and records
 * them. (The main side of the routing runs for real in workspace-service.test.ts.)
 */
function recordingClient(): { calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  const answers: Record<string, (input: never) => unknown> = {
    'projects.open': (input: { path: string }) => ({
      project: input.path === B.path ? B : A,
      sessions: input.path === B.path ? [session('b1', B.id)] : [session('a1', A.id), session('a2', A.id)],
      tabs: input.path === B.path ? { open: ['b1'], active: 'b1' } : { open: ['a1', 'a2'], active: 'a1' },
    }),
    'projects.opened': () => [],
    'permissions.respond': () => ({ ok: true }),
    'tabs.activate': () => ({ open: ['b1'], active: 'b1' }),
    // Opening a project loads its open tabs' sessions.
    'sessions.get': (input: { sessionId: string }) => ({
      session: session(input.sessionId, input.sessionId.startsWith('b') ? B.id : A.id),
      transcript: [],
    }),
    'tasks.list': () => [],
    'agents.list': () => [],
    'terminal.find': () => ({ terminalId: null }),
    'trust.get': () => ({ pending: 0, items: [] }),
  };
  const client = {
    invoke: (channel: string, input: unknown) => {
      calls.push([channel, input]);
      const answer = answers[channel];
      return answer ? Promise.resolve(answer(input as never)) : new Promise(() => undefined);
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  };
  setClient(client as unknown as CarapaceClient);
  return { calls };
}

/** What the window shows through the browser's Notification API (jsdom has none). */
interface Shown {
  title: string;
  body: string;
  tag: string;
  click: () => void;
}
let shown: Shown[] = [];
class RecordingNotification {
  static permission = 'granted';
  onclick: (() => void) | null = null;
  constructor(title: string, options: { body: string; tag: string }) {
    shown.push({ title, body: options.body, tag: options.tag, click: () => this.onclick?.() });
  }
  close(): void {}
}

/** Project A on screen with a1 active and a2 in another tab; project B open elsewhere with b1. */
function twoProjects(): void {
  useStore.setState({
    project: A,
    sessions: { a1: session('a1', A.id), a2: session('a2', A.id) },
    tabs: { open: ['a1', 'a2'], active: 'a1' },
    layout: 'tabs',
    pending: [],
    unseen: {},
  });
  useStore.getState().setOpenProjects([
    { project: A, sessions: [session('a1', A.id), session('a2', A.id)] },
    { project: B, sessions: [session('b1', B.id)] },
  ]);
}

beforeEach(() => {
  shown = [];
  resetAnnounced();
  (globalThis as { Notification?: unknown }).Notification = RecordingNotification;
  twoProjects();
});
afterEach(() => {
  cleanup();
  delete (globalThis as { Notification?: unknown }).Notification;
});

describe('where a session is', () => {
  it('tells the project on screen from another open project, and knows nothing of the rest', () => {
    const s = useStore.getState();
    expect(placeOf(s, 'a2')).toMatchObject({ project: A, onScreen: true });
    expect(placeOf(s, 'b1')).toMatchObject({ project: B, onScreen: false, session: { title: 'b1 title' } });
    expect(placeOf(s, 'nope')).toBeNull();
  });

  it('is on screen only in the project shown, as its tabs show it, with the window visible', () => {
    const s = useStore.getState();
    expect(sessionOnScreen(s, 'a1', false)).toBe(true);
    expect(sessionOnScreen(s, 'a1', true)).toBe(false);
    expect(sessionOnScreen(s, 'a2', false)).toBe(false);
    expect(sessionOnScreen(s, 'b1', false)).toBe(false);
  });
});

describe('approval notifications', () => {
  it('announce a request of another project once, naming it; a click opens that project and session', async () => {
    const { calls } = recordingClient();
    await onPermissionRequested(request('r1', 'b1'));
    // The same request again (a reconnect, a repeated event) is not announced twice.
    await onPermissionRequested(request('r1', 'b1'));
    expect(useStore.getState().pending.map((p) => p.id)).toEqual(['r1']);
    expect(shown).toEqual([
      {
        title: 'b1 title needs you',
        body: 'Waiting for your approval in beta: Write r1.txt',
        tag: 'carapace-approval-r1',
        click: expect.any(Function),
      },
    ]);

    await act(async () => {
      shown[0]?.click();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(calls.map(([c]) => c)).toContain('projects.open');
    expect(calls.find(([c]) => c === 'projects.open')?.[1]).toEqual({ path: B.path });
    expect(calls.find(([c]) => c === 'tabs.activate')?.[1]).toEqual({ projectId: B.id, sessionId: 'b1' });
    expect(useStore.getState().project).toEqual(B);
  });

  it('announce a request of a session in another tab, but not one of the session on screen', async () => {
    recordingClient();
    await onPermissionRequested(request('r2', 'a1'));
    expect(shown).toEqual([]);
    await onPermissionRequested(request('r3', 'a2'));
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      ['a2 title needs you', 'Waiting for your approval: Write r3.txt'],
    ]);
    expect(useStore.getState().pending.map((p) => p.id)).toEqual(['r2', 'r3']);
  });

  it('announce a request of a session whose project is no longer open, by its id', async () => {
    recordingClient();
    await onPermissionRequested(request('r4', 'gone1234567'));
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      ['Session gone1234 needs you', 'Waiting for your approval: Write r4.txt'],
    ]);
  });

  it('forget an answered request: it leaves the Inbox and the set of those announced', async () => {
    recordingClient();
    await onPermissionRequested(request('r5', 'b1'));
    expect(announcedCount()).toBe(1);
    onPermissionResolved('r5');
    expect(useStore.getState().pending).toEqual([]);
    expect(announcedCount()).toBe(0);
  });

  it('a session of another project that finishes is marked unseen and announced with its project', () => {
    onWatchedSession(session('b1', B.id, { activity: 'idle' }));
    expect(useStore.getState().unseen).toEqual({ b1: true });
    expect(shown.map((n) => [n.title, n.body])).toEqual([['b1 title finished', 'In beta.']]);
    // Already idle: a later change (a rename) announces nothing.
    onWatchedSession(session('b1', B.id, { activity: 'idle', title: 'renamed' }));
    expect(shown).toHaveLength(1);
  });
});

describe('a removed session', () => {
  it('is no longer watched, in another project as in the one on screen', () => {
    onSessionRemoved(B.id, 'b1');
    expect(useStore.getState().watchedSessions.b1).toBeUndefined();
    expect(placeOf(useStore.getState(), 'b1')).toBeNull();
    onSessionRemoved(A.id, 'a2');
    expect(useStore.getState().sessions.a2).toBeUndefined();
    expect(useStore.getState().watchedSessions.a2).toBeUndefined();
    expect(useStore.getState().watchedSessions.a1).toBeDefined();
  });
});

describe('the Inbox across projects', () => {
  it('names each request’s project and session; Allow once answers that request; Go to opens its project', async () => {
    const { calls } = recordingClient();
    useStore.setState({ pending: [request('ra', 'a2'), request('rb', 'b1'), request('rx', 'unknown')] });
    render(<Inbox />);
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'alpha · a2 titleWrite ra.txt',
      'beta · b1 titleWrite rb.txt',
      'Project not open · Session unknownWrite rx.txt',
    ]);
    // Picking another project's entry selects it without swapping the workspace.
    fireEvent.click(options[1] as HTMLElement);
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    expect(calls).toEqual([['permissions.respond', { requestId: 'rb', decision: 'allow_once' }]]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Go to beta · b1 title' }));
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(calls.map(([c]) => c)).toContain('projects.open');
    expect(calls.at(-1)).toEqual(['tabs.activate', { projectId: B.id, sessionId: 'b1' }]);
  });

  it('still lists and answers a request of a session whose project was forgotten while it ran', () => {
    const { calls } = recordingClient();
    useStore.setState({ pending: [request('rf', 'b1')] });
    // Forgetting project B: the window no longer watches it, but b1 runs on and waits for an answer.
    useStore
      .getState()
      .setOpenProjects([{ project: A, sessions: [session('a1', A.id), session('a2', A.id)] }]);
    render(<Inbox />);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Project not open · Session b1Write rf.txt',
    ]);
    // Nowhere to go, but answerable.
    expect(screen.queryByRole('button', { name: /^Go to/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(calls).toEqual([['permissions.respond', { requestId: 'rf', decision: 'deny' }]]);
  });

  it('Enter on a focused button clicks it and does not also answer the selected request', () => {
    const { calls } = recordingClient();
    useStore.setState({ pending: [request('rb', 'b1')] });
    render(<Inbox />);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Deny' }), { key: 'Enter' });
    expect(calls).toEqual([]);
    fireEvent.keyDown(screen.getByRole('region', { name: 'Inbox' }), { key: 'd' });
    expect(calls).toEqual([['permissions.respond', { requestId: 'rb', decision: 'deny' }]]);
  });
});
