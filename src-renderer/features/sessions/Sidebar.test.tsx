import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStore } from '../../stores/store';
import { Sidebar } from './Sidebar';
import { sessionSummary } from '../../test-support/session-summary';

const session = (id: string, updatedAt: string) => sessionSummary({ id, title: `${id} title`, updatedAt });

afterEach(cleanup);

const order = () =>
  screen
    .getAllByRole('button')
    .filter((b) => b.classList.contains('session-entry'))
    .map((b) => b.textContent.split(' title')[0]);

describe('Sidebar', () => {
  it('does not stay frozen when folded while the pointer was over the list', () => {
    useStore.setState({
      sidebarCollapsed: false,
      pending: [],
      sessions: { a: session('a', '2026-01-02'), b: session('b', '2026-01-01') },
    });
    render(<Sidebar />);
    expect(order()).toEqual(['a', 'b']);
    const list = screen.getByRole('navigation', { name: 'Sessions' }).querySelector('ul') as HTMLElement;
    fireEvent.pointerEnter(list);
    // Ctrl+B folds the sidebar under the pointer: pointerleave never comes.
    act(() => useStore.getState().setSidebarCollapsed(true));
    act(() => useStore.setState((s) => ({ sessions: { ...s.sessions, b: session('b', '2026-01-03') } })));
    act(() => useStore.getState().setSidebarCollapsed(false));
    expect(order()).toEqual(['b', 'a']);
  });

  it('folds and unfolds by its toggle, which says which way it goes', () => {
    useStore.setState({ sidebarCollapsed: false, pending: [], sessions: {} });
    render(<Sidebar />);
    const hide = screen.getByRole('button', { name: 'Hide sidebar' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(hide.title).toBe('Hide sidebar (Ctrl+B)');
    fireEvent.click(hide);
    expect(useStore.getState().sidebarCollapsed).toBe(true);
    const show = screen.getByRole('button', { name: 'Show sidebar' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(show);
    expect(useStore.getState().sidebarCollapsed).toBe(false);
  });
});
