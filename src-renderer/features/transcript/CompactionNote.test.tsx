import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { sessionSummary } from '../../test-support/session-summary';
import { Transcript } from './Transcript';

const session = sessionSummary();

const note = (over: Partial<NoticeItem>, compaction: NonNullable<NoticeItem['compaction']>): NoticeItem => ({
  kind: 'notice',
  id: 'n1',
  level: compaction.ok ? 'info' : 'warning',
  text: 'Context compacted automatically at 170,000 of 167,000 tokens: 12 earlier message(s) summarized.',
  createdAt: '',
  code: 'autocompact',
  compaction,
  ...over,
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

describe('a compaction in the transcript', () => {
  it('is a quiet note that expands, by a keyboard-reachable button, to its summary', async () => {
    mainWith([
      note(
        {},
        {
          trigger: 'auto',
          ok: true,
          breakerOpen: false,
          summarized: 12,
          summary: 'SUMMARY: the person is fixing the build.',
        },
      ),
    ]);
    render(<Transcript sessionId="s" />);
    const line = await screen.findByText('Conversation compacted (auto): 12 messages summarized');
    const box = line.closest('.notice');
    expect(box?.classList.contains('notice-info')).toBe(true);
    expect(screen.queryByText('SUMMARY: the person is fixing the build.')).toBeNull();
    const button = screen.getByRole('button', { name: 'Show summary' });
    expect(button.tagName).toBe('BUTTON');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const summary = screen.getByRole('region', { name: 'Compaction summary' });
    expect(summary.textContent).toBe('SUMMARY: the person is fixing the build.');
    expect(button.getAttribute('aria-controls')).toBe(summary.id);
    fireEvent.click(screen.getByRole('button', { name: 'Hide summary' }));
    expect(screen.queryByRole('region', { name: 'Compaction summary' })).toBeNull();
  });

  it('a manual one names its trigger; one message is singular', async () => {
    mainWith([
      note(
        { code: 'compact' },
        { trigger: 'manual', ok: true, breakerOpen: false, summarized: 1, summary: 'S' },
      ),
    ]);
    render(<Transcript sessionId="s" />);
    expect(await screen.findByText('Conversation compacted (manual): 1 message summarized')).toBeTruthy();
  });

  it('a failure stands out as a warning, with its reason, and nothing to expand', async () => {
    const text = 'Automatic compaction failed (summary refused); the conversation goes on uncompacted.';
    mainWith([
      note(
        { text, code: 'autocompact_failed' },
        { trigger: 'auto', ok: false, breakerOpen: false, summarized: null, summary: null },
      ),
    ]);
    render(<Transcript sessionId="s" />);
    const line = await screen.findByText('Compaction failed (auto)');
    const box = line.closest('.notice');
    expect(box?.classList.contains('notice-warning')).toBe(true);
    expect(box?.textContent).toContain(text);
    expect(screen.queryByRole('button', { name: 'Show summary' })).toBeNull();
  });

  it('the one that opened the breaker says automatic compaction is off for the session', async () => {
    const text =
      'Automatic compaction failed 3 times in a row (summary refused); it is off for the rest of this session.';
    mainWith([
      note(
        { text, code: 'autocompact_off' },
        { trigger: 'auto', ok: false, breakerOpen: true, summarized: null, summary: null },
      ),
    ]);
    render(<Transcript sessionId="s" />);
    const alert = await screen.findByRole('alert');
    expect(alert.classList.contains('notice-warning')).toBe(true);
    expect(alert.textContent).toContain('Automatic compaction is off for this session');
    expect(alert.textContent).toContain(text);
  });
});
