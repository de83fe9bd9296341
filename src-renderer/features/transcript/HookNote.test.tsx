import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { sessionSummary } from '../../test-support/session-summary';
import { Transcript } from './Transcript';

const session = sessionSummary();

type HookRun = NonNullable<NoticeItem['hook']>;
const note = (id: string, text: string, hook?: Partial<HookRun>): NoticeItem => ({
  kind: 'notice',
  id,
  level: hook?.outcome === 'error' ? 'warning' : 'info',
  text,
  createdAt: '',
  code: 'hook',
  ...(hook
    ? {
        hook: {
          event: 'PostToolUse',
          source: 'project',
          label: 'npm run lint',
          handlerType: 'command',
          outcome: 'ok',
          exitCode: 0,
          durationMs: 40,
          stdout: '',
          stderr: '',
          ...hook,
        },
      }
    : {}),
});

/** The main process answering `sessions.get` with this transcript. */
function mainWith(transcript: TranscriptItem[]): void {
  const client = {
    invoke: (channel: string) =>
      channel === 'sessions.get' ? Promise.resolve({ session, transcript }) : new Promise(() => undefined),
    on: () => () => undefined,
    onConnection: () => () => undefined,
  };
  setClient(client as unknown as CarapaceClient);
}

const initial = useStore.getState();
beforeEach(() => {
  useStore.setState(initial, true);
  useStore.getState().setSession(session);
});
afterEach(cleanup);

describe('a hook run in the transcript', () => {
  it('is a quiet line that expands, by a keyboard-reachable button, to its stdout and stderr', async () => {
    mainWith([
      note('n1', 'PostToolUse hook (Bash): npm run lint — ok, 40 ms', {
        stdout: 'All files pass.\n',
        stderr: 'warning: 1 rule deprecated\n',
      }),
    ]);
    render(<Transcript sessionId="s" />);
    const line = await screen.findByText('PostToolUse hook (Bash): npm run lint — ok, 40 ms');
    const box = line.closest('.notice');
    expect(box?.classList.contains('notice-info')).toBe(true);
    expect(box?.querySelector('.hook-verdict')).toBeNull();
    expect(screen.queryByText('All files pass.')).toBeNull();
    const button = screen.getByRole('button', { name: 'Show output' });
    expect(button.tagName).toBe('BUTTON');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const region = screen.getByRole('region', { name: 'PostToolUse hook output' });
    expect(button.getAttribute('aria-controls')).toBe(region.id);
    expect(region.textContent).toContain('stdoutAll files pass.');
    expect(region.textContent).toContain('stderrwarning: 1 rule deprecated');
    expect(region.textContent).toContain('command hook from project settings, exit code 0, 40 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Hide output' }));
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('a block and a failure stand out with an icon and a word, not colour alone; output cut by the harness shows its note', async () => {
    const cut = `${'x'.repeat(10_000)}\n… [hook output cut: 5000 more characters over the 10,000-character limit]`;
    mainWith([
      note('n1', 'PreToolUse hook (Bash): guard.sh — blocked: no rm, 5 ms', {
        event: 'PreToolUse',
        outcome: 'block',
        exitCode: 2,
        stderr: 'no rm',
      }),
      note('n2', 'Stop hook: notify.sh — exited with 1: boom, 9 ms', {
        event: 'Stop',
        outcome: 'error',
        exitCode: 1,
        stdout: cut,
      }),
    ]);
    render(<Transcript sessionId="s" />);
    const blocked = (await screen.findByText(/guard\.sh — blocked/)).closest('.notice')!;
    expect(blocked.classList.contains('hook-blocked')).toBe(true);
    expect(blocked.querySelector('.hook-verdict')?.textContent).toBe('✕ Blocked');
    const failed = screen.getByText(/notify\.sh — exited with 1/).closest('.notice')!;
    expect(failed.classList.contains('hook-failed')).toBe(true);
    expect(failed.querySelector('.hook-verdict')?.textContent).toBe('⚠ Failed');
    fireEvent.click(screen.getAllByRole('button', { name: 'Show output' })[1]!);
    const region = screen.getByRole('region', { name: 'Stop hook output' });
    expect(region.querySelector('pre')?.textContent).toBe(cut);
  });

  it('a note from an older transcript, without the run, is the plain line it was', async () => {
    mainWith([note('n1', 'Stop hook: true — ok, 3 ms')]);
    render(<Transcript sessionId="s" />);
    const line = await screen.findByText('Stop hook: true — ok, 3 ms');
    expect(line.classList.contains('notice')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Show output' })).toBeNull();
  });

  it('a run with no output says so instead of offering an empty expansion', async () => {
    mainWith([note('n1', 'Stop hook: true — ok, 3 ms', { event: 'Stop' })]);
    render(<Transcript sessionId="s" />);
    await screen.findByText('Stop hook: true — ok, 3 ms');
    expect(screen.getByText('no output')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show output' })).toBeNull();
  });
});
