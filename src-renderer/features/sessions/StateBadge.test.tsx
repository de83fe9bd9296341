import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary, TaskView } from '@shared/domain/session';
import { useStore } from '../../stores/store';
import { runningTasks, taskLabel } from '../../stores/tasks-slice';
import { StateBadge } from './StateBadge';
import { sessionSummary } from '../../test-support/session-summary';

const session = (over: Partial<SessionSummary>) => sessionSummary({ title: 'Fix the build', ...over });

const task = (over: Partial<TaskView>): TaskView => ({
  id: 't',
  sessionId: 's',
  kind: 'local_bash',
  description: 'npm run dev',
  command: 'npm run dev',
  status: 'running',
  startedAt: '',
  endedAt: null,
  exitCode: null,
  outputTail: '',
  ...over,
});

afterEach(cleanup);

/** The badge's shape (the icon's lucide class) and its words. */
function badge(): { shape: string; label: string | null } | null {
  const el = document.querySelector('[data-badge]');
  if (!el) return null;
  const svg = el.querySelector('svg');
  return {
    shape: [...(svg?.classList ?? [])].find((c) => c.startsWith('lucide-') && c !== 'lucide-icon') ?? '',
    label: el.getAttribute('aria-label'),
  };
}

describe('StateBadge', () => {
  it('gives every state its own shape and words, not only a colour', () => {
    const seen = new Map<string, string>();
    const states: [Partial<SessionSummary>, boolean, string][] = [
      [{ activity: 'streaming' }, false, 'working'],
      [{ waitingForUser: true, activity: 'tools' }, false, 'waiting for you'],
      [{ activity: 'error' }, false, 'error'],
      [{}, true, 'done, unseen'],
    ];
    for (const [over, unseen, words] of states) {
      useStore.setState({ sessions: { s: session(over) }, unseen: unseen ? { s: true } : {}, tasks: {} });
      render(<StateBadge sessionId="s" />);
      const b = badge();
      expect(b?.label).toBe(words);
      expect(screen.getByRole('img', { name: words })).toHaveProperty('title', words);
      seen.set(b?.shape ?? '', words);
      cleanup();
    }
    // Four states, four different icons.
    expect(seen.size).toBe(4);
    expect([...seen.keys()].every((k) => k !== '')).toBe(true);
  });

  it('shows nothing for an idle session without background tasks', () => {
    useStore.setState({ sessions: { s: session({}) }, unseen: {}, tasks: {} });
    const { container } = render(<StateBadge sessionId="s" />);
    expect(container.innerHTML).toBe('');
  });

  it('shows running background tasks with a count, and lists them in the tooltip', () => {
    useStore.setState({
      sessions: { s: session({}) },
      unseen: {},
      tasks: {
        s: [
          task({ id: 't1' }),
          task({ id: 't2', kind: 'local_agent', description: 'Explore the parser', command: 'Look at…' }),
          task({ id: 't3', status: 'completed', description: 'done already' }),
        ],
      },
    });
    render(<StateBadge sessionId="s" />);
    const label = '2 background tasks running: Bash: npm run dev; Agent: Explore the parser';
    const el = screen.getByRole('img', { name: label });
    expect(el.getAttribute('title')).toBe(label);
    expect(el.textContent).toBe('2');
  });
});

describe('running tasks', () => {
  it('keeps only running ones, and labels a task in a few words', () => {
    expect(runningTasks(undefined)).toEqual([]);
    expect(runningTasks([task({ status: 'killed' })])).toEqual([]);
    expect(runningTasks([task({ id: 'x' })]).map((t) => t.id)).toEqual(['x']);
    expect(taskLabel(task({ kind: 'in_process_teammate', description: 'tester' }))).toBe('Teammate: tester');
    expect(taskLabel(task({ description: '', command: `echo ${'x'.repeat(80)}` }))).toMatch(
      /^Bash: echo x+…$/,
    );
    expect(taskLabel(task({ description: '', command: `echo ${'x'.repeat(80)}` })).length).toBe(66);
  });
});
