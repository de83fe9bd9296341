import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionCostDetail } from '@shared/domain/cost-report';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { openCostSession } from './open-session';
import SessionCostView from './SessionCostView';
import { sum } from './test-report';

const initial = useStore.getState();
let asked: { channel: string; input: unknown }[] = [];

function fakeMain(detail: SessionCostDetail | null) {
  asked = [];
  setClient({
    invoke: (channel: string, input: unknown) => {
      asked.push({ channel, input });
      if (channel === 'cost.session' && detail) return Promise.resolve(detail);
      return new Promise(() => undefined);
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  } as unknown as CarapaceClient);
}

const detail: SessionCostDetail = {
  sessionId: 's1',
  priceTable: { version: 'v9', date: '2026-11-01' },
  total: sum(1_800_000, { input: 900 }, 1, 4),
  byModel: [
    { ...sum(1_800_000, { input: 800 }, 0, 3), model: 'claude-sonnet-4-5', priced: true },
    { ...sum(0, { input: 100 }, 1, 1), model: 'odd-model', priced: false },
  ],
  byTurn: [
    {
      ...sum(1_000_000, { input: 500 }),
      source: 'carapace',
      sessionId: 's1',
      title: 'T',
      turn: 1,
      at: '2026-12-01T10:00:00Z',
      models: ['claude-sonnet-4-5'],
    },
    {
      ...sum(800_000, { input: 300 }, 1, 2),
      source: 'carapace',
      sessionId: 's1',
      title: 'T',
      turn: 2,
      at: '2026-12-01T11:00:00Z',
      models: ['claude-sonnet-4-5', 'odd-model'],
    },
  ],
  byMember: [
    { ...sum(1_300_000, { input: 700 }, 1, 3), agentId: null, name: 'main', agentType: 'main' },
    { ...sum(500_000, { input: 200 }), agentId: 'a1', name: 'Explore the parser', agentType: 'Explore' },
    { ...sum(1_230, { input: 3 }), agentId: 'a2', name: 'Quick look', agentType: 'Explore' },
  ],
};

beforeEach(() => {
  useStore.setState(initial, true);
  useStore.setState({ project: { id: 'p', path: '/work/p', name: 'Proj', lastOpenedAt: '' } });
});
afterEach(cleanup);

describe("a session's cost view", () => {
  it('shows the session by member, model and turn, with unpriced parts flagged', async () => {
    fakeMain(detail);
    useStore.getState().setCostSessionId('s1');
    render(<SessionCostView />);
    expect(await screen.findByTestId('session-cost-total')).toHaveProperty('textContent', '$1.80 + unpriced');
    expect(asked[0]).toEqual({ channel: 'cost.session', input: { sessionId: 's1' } });
    expect(screen.getByText('Estimated from list prices, table v9 (2026-11-01).')).toBeTruthy();
    const members = screen.getByRole('table', { name: 'By member' });
    const cells = (name: string) =>
      within(within(members).getByText(name).closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('Main agent')).toEqual(['Main agent', '—', '700', '3', '$1.30 + unpriced']);
    // One rule for the column: two decimals, less than a cent as "<$0.01", the exact figure on hover.
    expect(cells('Explore the parser')).toEqual(['Explore the parser', 'Explore', '200', '1', '$0.50']);
    expect(cells('Quick look')).toEqual(['Quick look', 'Explore', '3', '1', '<$0.01']);
    const quick = within(members).getByText('<$0.01');
    expect(quick.getAttribute('title')).toBe('$0.00123');
    const turns = within(screen.getByRole('table', { name: 'By turn' })).getAllByRole('row');
    expect(turns.map((r) => r.querySelector('td')?.textContent)).toEqual([undefined, '1', '2']);
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Session cost' }), { key: 'Escape' });
    expect(useStore.getState().costSessionId).toBeNull();
  });

  it('says so when the session has no cost to show', async () => {
    setClient({
      invoke: () => Promise.reject(new Error('No such session.')),
      on: () => () => undefined,
      onConnection: () => () => undefined,
    });
    useStore.getState().setCostSessionId('gone');
    render(<SessionCostView />);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        "The session's cost could not be read: No such session.",
      ),
    );
  });
});

describe('opening a session from the dashboard', () => {
  it('opens it in the project on screen, closing the dashboard', async () => {
    fakeMain(null);
    useStore.setState({ costOpen: true });
    void openCostSession('s1', '/work/p');
    expect(useStore.getState().costOpen).toBe(false);
    await waitFor(() => expect(asked.map((a) => a.channel)).toContain('sessions.get'));
    expect(asked.map((a) => a.channel)).not.toContain('projects.open');
  });

  it('opens its project first when it ran in another one', async () => {
    fakeMain(null);
    useStore.setState({
      openProjects: { q: { id: 'q', path: '/work/q', name: 'Q', lastOpenedAt: '' } },
    });
    void openCostSession('s2', '/work/q');
    await waitFor(() => expect(asked[0]).toEqual({ channel: 'projects.open', input: { path: '/work/q' } }));
    void openCostSession('s3', '/work/never-opened');
    await waitFor(() =>
      expect(asked[1]).toEqual({ channel: 'projects.open', input: { path: '/work/never-opened' } }),
    );
  });
});
