import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BudgetRequestView } from '@shared/domain/cost-report';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { Inbox } from './Inbox';

const request: BudgetRequestView = {
  id: 'b1',
  sessionId: 's1',
  kind: 'session',
  limitMicros: 1_000_000,
  spentMicros: 1_200_000,
  suggestedMoreMicros: 1_000_000,
  canAllowMore: true,
  createdAt: '2026-12-03T12:00:00.000Z',
};

let sent: { channel: string; input: unknown }[] = [];

beforeEach(() => {
  sent = [];
  setClient({
    invoke: (channel: string, input: unknown) => {
      sent.push({ channel, input });
      return Promise.resolve({ ok: true });
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  } as unknown as CarapaceClient);
  act(() => useStore.setState({ pending: [], budgetPending: [request] }));
});

afterEach(() => {
  cleanup();
  act(() => useStore.setState({ budgetPending: [] }));
});

describe('budget questions in the Inbox', () => {
  it('shows what was reached and answers "allow $N more" with the amount typed, by button', () => {
    render(<Inbox />);
    const item = screen.getByRole('group', { name: /Budget reached/ });
    expect(item.textContent).toContain('$1.20 of the session budget of $1.00');
    expect(screen.getByRole('region', { name: 'Inbox' }).textContent).toContain('1');
    const amount = screen.getByRole('textbox', { name: 'Amount to allow, in USD' });
    expect((amount as HTMLInputElement).value).toBe('1.00');
    fireEvent.change(amount, { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Allow $2.50 more' }));
    expect(sent).toEqual([
      { channel: 'budgets.respond', input: { requestId: 'b1', decision: 'allow_more', moreUsd: 2.5 } },
    ]);
  });

  it('answers by keys: S stops, Enter allows; an amount that is not one cannot be sent', () => {
    render(<Inbox />);
    const item = screen.getByRole('group', { name: /Budget reached/ });
    fireEvent.keyDown(item, { key: 's' });
    expect(sent.at(-1)).toEqual({ channel: 'budgets.respond', input: { requestId: 'b1', decision: 'stop' } });
    fireEvent.keyDown(item, { key: 'Enter' });
    expect(sent.at(-1)?.input).toMatchObject({ decision: 'allow_more', moreUsd: 1 });
    const amount = screen.getByRole('textbox', { name: 'Amount to allow, in USD' });
    fireEvent.change(amount, { target: { value: 'lots' } });
    const before = sent.length;
    fireEvent.keyDown(amount, { key: 'Enter' });
    expect(sent).toHaveLength(before);
    expect(screen.getByRole('button', { name: /Allow .* more/ }).hasAttribute('disabled')).toBe(true);
  });

  it('a limit set by the managed policy offers only "Stop" and says why; Enter allows nothing', () => {
    act(() => useStore.setState({ budgetPending: [{ ...request, canAllowMore: false }] }));
    render(<Inbox />);
    const item = screen.getByRole('group', { name: /Budget reached/ });
    expect(item.textContent).toContain('set by your organization');
    expect(screen.queryByRole('button', { name: /Allow .* more/ })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Amount to allow, in USD' })).toBeNull();
    fireEvent.keyDown(item, { key: 'Enter' });
    expect(sent).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(sent).toEqual([{ channel: 'budgets.respond', input: { requestId: 'b1', decision: 'stop' } }]);
  });
});
