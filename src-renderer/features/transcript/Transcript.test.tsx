import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IpcRequestError } from '@shared/domain/errors';
import type { MessageItem } from '@shared/domain/messages';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { Transcript } from './Transcript';
import { sessionSummary } from '../../test-support/session-summary';

const session = sessionSummary();

const reply: MessageItem = {
  kind: 'message',
  id: 'm1',
  role: 'assistant',
  content: [{ type: 'text', text: 'All done.' }],
  createdAt: '',
  status: 'complete',
};

/**
 * The main process as the renderer sees it, for the one request a transcript makes: `sessions.get`
 * fails while `down` is set (as when the main process is busy or restarting), then answers.
 */
function flakyMain(): { down: boolean; asked: number } {
  const main = { down: true, asked: 0 };
  const client = {
    invoke: (channel: string) => {
      if (channel !== 'sessions.get') return new Promise(() => undefined);
      main.asked++;
      return main.down
        ? Promise.reject(new IpcRequestError({ code: 'UNAVAILABLE', message: 'The session store is busy.' }))
        : Promise.resolve({ session, transcript: [reply] });
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  };
  setClient(client as unknown as CarapaceClient);
  return main;
}

const initial = useStore.getState();
beforeEach(() => {
  useStore.setState(initial, true);
  useStore.getState().setSession(session);
});
afterEach(cleanup);

describe('a transcript the window does not hold', () => {
  it('shows why fetching it failed, with a Retry that fetches it again', async () => {
    const main = flakyMain();
    render(<Transcript sessionId="s" />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the transcript: The session store is busy.');
    expect(screen.queryByText('Loading…')).toBeNull();
    main.down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('All done.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(main.asked).toBe(2);
  });
});

describe('recalled memories in a transcript', () => {
  it('shows them as a quiet note that says what they are, not as the person writing', async () => {
    const note: MessageItem = {
      kind: 'message',
      id: 'mem',
      role: 'user',
      origin: 'memory',
      content: [{ type: 'text', text: '<memory file="deploy.md" saved="today">Use make release.</memory>' }],
      createdAt: '',
      status: 'complete',
    };
    setClient({
      invoke: (channel: string) =>
        channel === 'sessions.get'
          ? Promise.resolve({ session, transcript: [note, reply] })
          : new Promise(() => undefined),
      on: () => () => undefined,
      onConnection: () => () => undefined,
    } as unknown as CarapaceClient);
    render(<Transcript sessionId="s" />);
    const summary = await screen.findByText('Memories recalled for this message');
    expect(summary.closest('details')?.getAttribute('data-origin')).toBe('memory');
    expect(screen.getByText(/Use make release\./).closest('details')).toBe(summary.closest('details'));
  });
});
