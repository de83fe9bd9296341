import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStore } from '../../stores/store';
import { sessionSummary } from '../../test-support/session-summary';
import { Sidebar } from '../sessions/Sidebar';
import { useWorktrees } from './worktree-store';

afterEach(cleanup);

const wt = (name: string) => ({
  path: `/data/worktrees/r/${name}`,
  prefix: '',
  branch: `carapace/${name}`,
  base: 'main',
});

describe('the sidebar with worktree sessions', () => {
  it('lists them in one group per worktree with the branch and ↑ahead ↓behind, apart from the others', () => {
    useStore.setState({
      sidebarCollapsed: false,
      pending: [],
      project: null,
      sessions: {
        plain: sessionSummary({ id: 'plain', title: 'plain title', updatedAt: '2026-01-03' }),
        b: sessionSummary({ id: 'b', title: 'b title', updatedAt: '2026-01-02', worktree: wt('b') }),
        c: sessionSummary({ id: 'c', title: 'c title', updatedAt: '2026-01-01', worktree: wt('c') }),
      },
    });
    useWorktrees.setState({
      closing: null,
      statuses: {
        b: {
          sessionId: 'b',
          branch: 'carapace/b',
          base: 'main',
          ahead: 2,
          behind: 1,
          dirty: 3,
          exists: true,
          problem: null,
        },
      },
    });
    render(<Sidebar />);
    const plainList = screen.getByRole('navigation', { name: 'Sessions' }).querySelector('ul') as HTMLElement;
    expect(
      within(plainList)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('plain title')]);
    const b = screen.getByRole('region', { name: 'Worktree carapace/b' });
    expect(within(b).getByLabelText('2 ahead, 1 behind').textContent).toBe('↑2 ↓1');
    expect(b.textContent).toContain('3 changed');
    expect(b.textContent).toContain('b title');
    // No counts yet for c: its group still shows, without made-up numbers.
    const c = screen.getByRole('region', { name: 'Worktree carapace/c' });
    expect(c.textContent).not.toContain('↑');
    fireEvent.click(within(c).getByRole('button', { name: 'Finish worktree carapace/c' }));
    expect(useWorktrees.getState().closing).toBe('c');
  });
});
