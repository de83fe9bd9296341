import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BudgetStatus, CostQuery, CostReport } from '@shared/domain/cost-report';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import CostDashboard from './CostDashboard';
import { addDays, localDay } from './range';
import { report, sessionRow, sum } from './test-report';

const initial = useStore.getState();

// jsdom has no matchMedia and no canvas: uPlot reads the first as it loads; the chart then draws
// nothing (the e2e test checks the drawing in Chromium), and everything else is checked here.
if (typeof (window as { matchMedia?: unknown }).matchMedia !== 'function')
  Object.assign(window, {
    matchMedia: (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  });

/** The window's side of IPC, answering as the main process would and keeping what was asked. */
function fakeMain(answer: (query: CostQuery) => CostReport) {
  const asked: { channel: string; input: unknown }[] = [];
  const listeners = new Map<string, (payload: unknown) => void>();
  let budgets: BudgetStatus = {
    budgets: { dailyUsd: 20 },
    projectTodayMicros: 1_250_000,
    allTodayMicros: 5_000_000,
  };
  const client = {
    invoke: (channel: string, input: unknown) => {
      asked.push({ channel, input });
      if (channel === 'cost.report') return Promise.resolve(answer(input as CostQuery));
      if (channel === 'budgets.get') return Promise.resolve(budgets);
      if (channel === 'budgets.set') {
        const i = input as Record<string, number | null>;
        budgets = {
          ...budgets,
          budgets: Object.fromEntries(Object.entries(i).filter(([k, v]) => k !== 'projectId' && v !== null)),
        };
        return Promise.resolve(budgets);
      }
      if (channel === 'cost.export')
        return Promise.resolve({ fileName: 'sessions.csv', mimeType: 'text/csv', text: 'a,b\n' });
      return new Promise(() => undefined);
    },
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    },
    onConnection: () => () => undefined,
  };
  setClient(client as unknown as CarapaceClient);
  const reports = () => asked.filter((a) => a.channel === 'cost.report').map((a) => a.input as CostQuery);
  return { asked, reports, emit: (event: string, payload: unknown) => listeners.get(event)?.(payload) };
}

const rows = [
  sessionRow({
    sessionId: 'a',
    title: 'Alpha',
    costMicros: 2_000_000,
    tokens: sum(0, { input: 300 }).tokens,
    turns: 2,
  }),
  sessionRow({
    sessionId: 'b',
    title: 'Bravo',
    costMicros: 5_000_000,
    tokens: sum(0, { input: 100 }).tokens,
    turns: 9,
  }),
  sessionRow({
    sessionId: 'c',
    title: 'Charlie',
    costMicros: 0,
    records: 2,
    unpricedRecords: 2,
    models: ['mystery-model'],
    tokens: sum(0, { input: 200 }).tokens,
  }),
];

const full = (q: CostQuery) =>
  report({
    query: q,
    total: sum(7_000_000, { input: 600 }, 2, 6),
    models: [
      { ...sum(7_000_000, { input: 400 }, 0, 4), model: 'claude-sonnet-4-5', priced: true },
      { ...sum(0, { input: 200 }, 2, 2), model: 'mystery-model', priced: false },
    ],
    sessions: rows,
  });

beforeEach(() => {
  useStore.setState(initial, true);
  useStore.setState({
    project: { id: 'p', path: '/work/p', name: 'Proj', lastOpenedAt: '' },
    costOpen: true,
  });
});
afterEach(cleanup);

describe('cost dashboard', () => {
  it('asks for the last 7 days of the open project, and labels its figures as estimates', async () => {
    const main = fakeMain(full);
    render(<CostDashboard />);
    await screen.findByText(/Estimated from list prices, table 2026-11-01\.1/);
    const today = localDay(new Date());
    expect(main.reports()[0]).toEqual({
      scope: { kind: 'project', projectId: 'p' },
      from: addDays(today, -6),
      to: today,
      sources: ['carapace', 'claude-code'],
    });
    expect(screen.getByTestId('cost-total').textContent).toBe('$7.00 + unpriced');
  });

  it('flags unpriced models and sessions, never $0', async () => {
    fakeMain(full);
    render(<CostDashboard />);
    const models = await screen.findByRole('table', { name: 'Models' });
    const mystery = within(models).getByText('mystery-model').closest('tr') as HTMLElement;
    expect(within(mystery).getAllByText('unpriced')).toHaveLength(2);
    const charlie = within(screen.getByRole('table', { name: 'Sessions' }))
      .getByText('Charlie')
      .closest('tr') as HTMLElement;
    expect(charlie.textContent).toContain('unpriced');
    expect(charlie.textContent).not.toContain('$0');
    expect(screen.getByText(/Not in the price table .*: mystery-model/)).toBeTruthy();
  });

  it('sorts the sessions by any column, from its header button, and says so with aria-sort', async () => {
    fakeMain(full);
    render(<CostDashboard />);
    const table = await screen.findByRole('table', { name: 'Sessions' });
    const titles = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('td')?.textContent);
    expect(titles()).toEqual(['Bravo', 'Alpha', 'Charlie']);
    const costHeader = within(table).getByRole('columnheader', { name: /Cost/ });
    expect(costHeader.getAttribute('aria-sort')).toBe('descending');

    const input = within(table).getByRole('button', { name: /^Input/ });
    // A real button in the header: Tab reaches it and Enter/Space press it.
    expect(input.tagName).toBe('BUTTON');
    fireEvent.click(input);
    expect(titles()).toEqual(['Alpha', 'Charlie', 'Bravo']);
    expect(input.closest('th')?.getAttribute('aria-sort')).toBe('descending');
    expect(costHeader.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(input);
    expect(titles()).toEqual(['Bravo', 'Charlie', 'Alpha']);
    expect(input.closest('th')?.getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(table).getByRole('button', { name: /^Session/ }));
    expect(titles()).toEqual(['Alpha', 'Bravo', 'Charlie']);
  });

  it('asks again for today, 30 days, all projects, and a custom range (refusing a backwards one)', async () => {
    const main = fakeMain(full);
    render(<CostDashboard />);
    await screen.findByRole('table', { name: 'Sessions' });
    const today = localDay(new Date());
    fireEvent.click(screen.getByRole('button', { name: 'Today' }));
    await waitFor(() => expect(main.reports().at(-1)).toMatchObject({ from: today, to: today }));
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() =>
      expect(main.reports().at(-1)).toMatchObject({ from: addDays(today, -29), to: today }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'All projects' }));
    await waitFor(() => expect(main.reports().at(-1)?.scope).toEqual({ kind: 'all' }));

    fireEvent.click(screen.getByRole('button', { name: 'Custom' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-02' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-20' } });
    await waitFor(() =>
      expect(main.reports().at(-1)).toMatchObject({ from: '2026-01-02', to: '2026-01-20' }),
    );
    const count = main.reports().length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-01' } });
    expect(screen.getByRole('alert').textContent).toBe('The start day is after the end day.');
    expect(main.reports()).toHaveLength(count);
  });

  it('offers the Claude Code toggle only when its transcripts exist', async () => {
    const main = fakeMain(full);
    const { unmount } = render(<CostDashboard />);
    await screen.findByRole('table', { name: 'Sessions' });
    expect(screen.queryByRole('checkbox', { name: 'Claude Code' })).toBeNull();
    unmount();

    const main2 = fakeMain((q) => ({ ...full(q), claudeCode: { available: true, enabled: true } }));
    render(<CostDashboard />);
    const toggle = await screen.findByRole('checkbox', { name: 'Claude Code' });
    fireEvent.click(toggle);
    await waitFor(() => expect(main2.reports().at(-1)?.sources).toEqual(['carapace']));
    expect(main.reports().length).toBeGreaterThan(0);
  });

  it('refreshes when new usage is recorded, and Esc closes it', async () => {
    const main = fakeMain(full);
    render(<CostDashboard />);
    await screen.findByRole('table', { name: 'Sessions' });
    const before = main.reports().length;
    act(() => main.emit('cost.updated', { projectId: 'p' }));
    await waitFor(() => expect(main.reports().length).toBe(before + 1));
    act(() => main.emit('cost.updated', { projectId: 'elsewhere' }));
    expect(main.reports().length).toBe(before + 1);
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Cost' }), { key: 'Escape' });
    expect(useStore.getState().costOpen).toBe(false);
  });

  it('exports a table through cost.export, for the query on screen', async () => {
    const main = fakeMain(full);
    const made: Blob[] = [];
    URL.createObjectURL = (b: Blob | MediaSource) => (made.push(b as Blob), 'blob:x');
    URL.revokeObjectURL = () => undefined;
    render(<CostDashboard />);
    await screen.findByRole('table', { name: 'Sessions' });
    fireEvent.click(screen.getByRole('button', { name: 'Export sessions as CSV' }));
    await waitFor(() => expect(made).toHaveLength(1));
    const exported = main.asked.find((a) => a.channel === 'cost.export')?.input;
    expect(exported).toEqual({ query: main.reports()[0], table: 'sessions', format: 'csv' });
    expect(await made[0]?.text()).toBe('a,b\n');
  });

  it('shows the budgets with today’s spend, saves them, and refuses a bad amount', async () => {
    const main = fakeMain(full);
    render(<CostDashboard />);
    const form = await screen.findByRole('form', { name: 'Budgets' });
    await waitFor(() => expect(form.textContent).toContain('today $5.00 (25%)'));
    expect(form.textContent).toContain('today $1.25');
    const session = within(form).getByLabelText('Per session limit in US dollars');
    fireEvent.change(session, { target: { value: 'lots' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save limits' }));
    expect(within(form).getByRole('alert').textContent).toBe(
      'A limit is a dollar amount above 0, or empty for none.',
    );
    fireEvent.change(session, { target: { value: '$2.5' } });
    fireEvent.change(within(form).getByLabelText('Everything per day limit in US dollars'), {
      target: { value: '' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save limits' }));
    await waitFor(() =>
      expect(main.asked.find((a) => a.channel === 'budgets.set')?.input).toEqual({
        projectId: 'p',
        sessionUsd: 2.5,
        projectDailyUsd: null,
        dailyUsd: null,
      }),
    );
  });
});
