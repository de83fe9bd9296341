import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem } from '@shared/domain/messages';
import type { SessionSummary } from '@shared/domain/session';
import { ZERO_USAGE } from '@shared/domain/usage';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { agentSummary } from '../../test-support/agent-summary';
import { TeamView } from './TeamView';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

const session: SessionSummary = {
  id: 's',
  projectId: 'p',
  title: 'Ship it',
  model: 'claude-opus-4-1',
  permissionMode: 'default',
  activity: 'tools',
  waitingForUser: false,
  createdAt: '',
  updatedAt: '',
  usage: ZERO_USAGE,
  costUsd: 0.3,
  costKind: 'priced',
  messageCount: 1,
  lastError: null,
  coordinator: false,
  background: false,
};

const said = (id: string, text: string): MessageItem => ({
  kind: 'message',
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
  createdAt: '',
  status: 'complete',
});

const initial = useStore.getState();

beforeEach(() => {
  useStore.setState(initial, true);
  const s = useStore.getState();
  s.setSession(session);
  s.setAgents('s', [
    agentSummary({
      id: 'a1',
      name: 'Explore the parser',
      agentType: 'Explore',
      toolUseId: 't1',
      activity: 'Grep: parseArgs',
      startedAt: iso(0),
      lastProgressAt: iso(0),
      costUsd: 0.01,
      totalCostUsd: 0.02,
    }),
    agentSummary({
      id: 'a2',
      name: 'Check the build',
      agentType: 'Verification',
      toolUseId: 't2',
      state: 'done',
      verdict: 'FAIL',
      verdictReasons: 'two tests fail',
      startedAt: iso(1000),
      endedAt: iso(61_000),
      lastProgressAt: iso(61_000),
    }),
    agentSummary({
      id: 'a3',
      parentId: 'a1',
      name: 'Loop',
      startedAt: iso(2000),
      lastProgressAt: iso(170_000),
      recentCalls: ['Read({"file_path":"a"})', 'Read({"file_path":"a"})', 'Read({"file_path":"a"})'],
    }),
  ]);
  s.setTranscript('s', 's', []);
  s.setTranscript('s', 'a1', [said('m1', 'Looking at src/parser.ts')]);
  s.setTranscript('s', 'a2', [said('m2', 'VERDICT: FAIL')]);
  s.setTranscript('s', 'a3', []);
});

afterEach(cleanup);

function cards() {
  return within(screen.getByRole('tree', { name: 'Members' })).getAllByRole('treeitem');
}

describe('team view', () => {
  it('draws the main agent and its agents as a tree with state, verdict, time and cost', () => {
    render(<TeamView sessionId="s" now={T0 + 180_000} stuckAfterSec={120} />);
    const all = cards();
    expect(all.map((c) => [c.dataset['member'], c.getAttribute('aria-level')])).toEqual([
      ['Main agent', '1'],
      ['Explore the parser', '2'],
      ['Loop', '3'],
      ['Check the build', '2'],
    ]);
    const [, explore, loop, check] = all;
    expect(explore).toHaveProperty('dataset.state', 'working');
    expect(within(explore as HTMLElement).getByTestId('member-activity').textContent).toBe('Grep: parseArgs');
    expect(within(explore as HTMLElement).getByTestId('member-cost').textContent).toBe(
      '$0.01 own · $0.02 total',
    );
    expect(within(check as HTMLElement).getByLabelText('Verdict: FAIL')).toBeTruthy();
    expect(check?.textContent).toContain('1 min 00 s');
    // Silent for three minutes, and a loop of the same Read: both flagged, the loop named.
    expect(explore?.dataset['stuck']).toBe('silent');
    expect(loop?.dataset['stuck']).toBe('repeating');
    expect(check?.dataset['stuck']).toBeUndefined();
    expect(screen.getByTestId('team-summary').textContent).toContain('2 stuck');
  });

  it('takes its stuck limit from the control', () => {
    render(<TeamView sessionId="s" now={T0 + 180_000} stuckAfterSec={120} />);
    const limit = screen.getByRole('spinbutton', { name: 'Stuck after (seconds)' });
    fireEvent.change(limit, { target: { value: '300' } });
    expect(cards()[1]?.dataset['stuck']).toBeUndefined();
    fireEvent.change(limit, { target: { value: '60' } });
    expect(cards()[1]?.dataset['stuck']).toBe('silent');
  });

  it('moves between cards with the arrows and opens a transcript with Enter', () => {
    render(<TeamView sessionId="s" now={T0} stuckAfterSec={120} />);
    const tree = screen.getByRole('tree', { name: 'Members' });
    const [root] = cards();
    root?.focus();
    fireEvent.keyDown(root as HTMLElement, { key: 'ArrowDown' });
    expect(cards()[1]?.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(cards()[1]);
    fireEvent.keyDown(tree, { key: 'ArrowRight' });
    expect(cards()[2]?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tree, { key: 'ArrowLeft' });
    expect(cards()[1]?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tree, { key: 'Enter' });
    const log = screen.getByRole('log', { name: 'Transcript of Explore the parser' });
    expect(log.textContent).toContain('Looking at src/parser.ts');
    // The transcript is live: new text shows without reopening.
    act(() => useStore.getState().upsertItem('s', 'a1', said('m3', 'Found the bug')));
    expect(log.textContent).toContain('Found the bug');
  });

  it("fetches the main agent's transcript when the window let it go, rather than waiting for ever", async () => {
    // The main process, for the one request this makes: the session's transcript.
    const asked: string[] = [];
    const client = {
      invoke: (channel: string) => {
        asked.push(channel);
        return channel === 'sessions.get'
          ? Promise.resolve({ session, transcript: [said('m0', 'The plan is ready')] })
          : new Promise(() => undefined);
      },
      on: () => () => undefined,
      onConnection: () => () => undefined,
    };
    setClient(client as unknown as CarapaceClient);
    act(() => useStore.getState().forgetTranscripts('s'));
    render(<TeamView sessionId="s" now={T0} stuckAfterSec={120} />);
    const [root] = cards();
    root?.focus();
    fireEvent.keyDown(root as HTMLElement, { key: 'Enter' });
    const log = await screen.findByRole('log', { name: 'Transcript of Main agent' });
    await waitFor(() => expect(log.textContent).toContain('The plan is ready'));
    expect(asked).toContain('sessions.get');
  });

  it('asks before S stops a member, and Esc takes the question back', () => {
    render(<TeamView sessionId="s" now={T0} stuckAfterSec={120} />);
    const tree = screen.getByRole('tree', { name: 'Members' });
    // Nothing chosen yet: the arrows start from the first card, the main agent.
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 's' });
    expect(screen.getByRole('group', { name: 'Stop Explore the parser?' })).toBeTruthy();
    fireEvent.keyDown(tree, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Stop Explore the parser?' })).toBeNull();
    // The view stays open: that Esc belonged to the question.
    expect(screen.getByRole('region', { name: 'Team view' })).toBeTruthy();
    // An ended member cannot be stopped: no question, a note instead.
    fireEvent.keyDown(tree, { key: 'End' });
    fireEvent.keyDown(tree, { key: 's' });
    expect(screen.queryByRole('group', { name: /^Stop / })).toBeNull();
    expect(useStore.getState().toasts.at(-1)?.text).toBe('Check the build is not running.');
  });

  it('offers a message box only for workers of a team', () => {
    useStore.getState().setTeam({
      sessionId: 's',
      members: [
        {
          name: 'parser-worker',
          agentId: 'a1',
          agentType: 'Explore',
          model: 'claude-haiku-4-5',
          state: 'working',
          instructions: '',
          planMode: true,
          pendingPlan: '1. Read parser.ts\n2. Fix parseArgs',
          unread: 2,
        },
      ],
      messages: [],
    });
    render(<TeamView sessionId="s" now={T0} stuckAfterSec={120} />);
    const tree = screen.getByRole('tree', { name: 'Members' });
    const worker = cards()[1] as HTMLElement;
    expect(worker.dataset['member']).toBe('parser-worker');
    expect(within(worker).getByText('2 unread')).toBeTruthy();
    expect(within(worker).getByRole('group', { name: 'Plan from parser-worker' }).textContent).toContain(
      'Fix parseArgs',
    );
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'm' });
    const box = screen.getByRole('textbox', { name: 'Message to parser-worker' });
    expect(document.activeElement).toBe(box);
    // Typing "s" or "m" in the box is text, not a command.
    fireEvent.keyDown(box, { key: 's' });
    expect(screen.queryByRole('group', { name: /^Stop / })).toBeNull();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'Message to parser-worker' })).toBeNull();
    // A sub-agent of one call is not addressable.
    fireEvent.keyDown(tree, { key: 'End' });
    fireEvent.keyDown(tree, { key: 'm' });
    expect(screen.queryByRole('textbox', { name: /^Message to/ })).toBeNull();
  });
});
