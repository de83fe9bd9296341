import { useEffect } from 'react';
import { create } from 'zustand';
import { IpcRequestError } from '@shared/domain/errors';
import type { RewindPlan } from '@shared/ipc/contract/rewind';
import { getClient } from '../../ipc/client';
import { openSession } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';

/** The rewind being looked at: its plan once the main process answered, or why it could not. */
export interface RewindState {
  target: { sessionId: string; messageId: string } | null;
  plan: RewindPlan | null;
  error: string | null;
  running: boolean;
  /**
   * A rewound or forked message's text, waiting for its session's message box to take it (the box
   * belongs to the sessions feature, which imports this one, not the other way round).
   */
  restored: { sessionId: string; text: string } | null;
}

export const useRewind = create<RewindState>()(() => ({
  target: null,
  plan: null,
  error: null,
  running: false,
  restored: null,
}));

/** For a session's message box: puts a rewound or forked message's text into it, once. */
export function useRestoredDraft(sessionId: string, setDraft: (text: string) => void): void {
  const restored = useRewind((s) => (s.restored?.sessionId === sessionId ? s.restored.text : null));
  useEffect(() => {
    if (restored === null) return;
    setDraft(restored);
    useRewind.setState({ restored: null });
  }, [restored, setDraft]);
}

const messageOf = (error: unknown) =>
  error instanceof IpcRequestError || error instanceof Error ? error.message : String(error);

/** Opens the confirm dialog for "Rewind to here" and asks the main process what it would do. */
export async function askRewind(sessionId: string, messageId: string): Promise<void> {
  useRewind.setState({ target: { sessionId, messageId }, plan: null, error: null, running: false });
  try {
    const plan = await getClient().invoke('rewind.plan', { sessionId, messageId });
    if (useRewind.getState().target?.messageId === messageId) useRewind.setState({ plan });
  } catch (error) {
    if (useRewind.getState().target?.messageId === messageId) useRewind.setState({ error: messageOf(error) });
  }
}

export function closeRewind(): void {
  useRewind.setState({ target: null, plan: null, error: null, running: false });
}

/**
 * Runs the rewind the dialog shows. Confirmed only when the plan asked for it (the person saw the
 * files that would be lost); the main process plans again and refuses if new conflicts came up.
 */
export async function runRewind(): Promise<void> {
  const { target, plan } = useRewind.getState();
  if (!target || !plan) return;
  useRewind.setState({ running: true, error: null });
  try {
    const out = await getClient().invoke('rewind.run', {
      ...target,
      confirmed: plan.needsConfirmation,
      seen: {
        flagged: plan.files.filter((f) => f.changedSince || f.refused !== null).map((f) => f.path),
        headMoved: plan.headMoved !== null,
      },
    });
    const store = useStore.getState();
    store.setTranscript(target.sessionId, target.sessionId, out.transcript);
    store.setSession(out.session);
    // The message goes back into the box, to change and send again.
    useRewind.setState({ restored: { sessionId: target.sessionId, text: out.draft } });
    store.requestComposerFocus(target.sessionId);
    closeRewind();
    if (out.skipped.length > 0)
      showToast(
        `Rewound; ${out.skipped.length} file(s) left as they were: ${out.skipped.map((s) => s.reason).join('; ')}`,
      );
  } catch (error) {
    useRewind.setState({ running: false, error: messageOf(error) });
    // What is on disk may have changed since the plan: show the fresh one.
    void askRewind(target.sessionId, target.messageId).then(() => {
      useRewind.setState({ error: messageOf(error) });
    });
  }
}

/** "Fork from here": a new session with the conversation before the message, in a new tab. */
export async function forkFrom(sessionId: string, messageId: string): Promise<void> {
  try {
    const out = await getClient().invoke('rewind.fork', { sessionId, messageId });
    useRewind.setState({ restored: { sessionId: out.session.id, text: out.draft } });
    await openSession(out.session.id);
  } catch (error) {
    showToast(`Forking the session: ${messageOf(error)}`);
  }
}

/** The person's last message in a session on screen (what `/rewind` rewinds to), or null. */
export function lastUserMessage(sessionId: string): string | null {
  const items = useStore.getState().transcripts[sessionId]?.[sessionId]?.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'message' && item.role === 'user' && item.origin === 'user') return item.id;
  }
  return null;
}
