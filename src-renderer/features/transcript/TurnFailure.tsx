import { useEffect, useState } from 'react';
import { RotateCw, TriangleAlert } from 'lucide-react';
import { isWorking } from '@shared/domain/session';
import { retrySession } from '../../ipc/actions';
import { useTranscriptItems } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { turnFailure } from './fold';
import './turn-failure.css';

/** Alt+R: not Ctrl+R or Ctrl+Shift+R, which reload the page in a browser. */
const isRetryKey = (e: KeyboardEvent) =>
  e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.code === 'KeyR';

/**
 * Under a turn that did not finish (an API error retries did not cure, a dropped connection, the app
 * closing mid-reply): what happened and a Retry button, also on Alt+R while the session is the one
 * on screen. Retrying asks again without repeating the person's message.
 */
export function TurnFailure({ sessionId }: { sessionId: string }) {
  const items = useTranscriptItems(sessionId, sessionId);
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));
  const canRetry = useStore((s) => s.sessions[sessionId]?.canRetry === true);
  const active = useStore((s) => s.tabs.active === sessionId);
  const failure = turnFailure(items, { working, canRetry });
  const [sending, setSending] = useState(false);
  const retry = () => {
    if (sending) return;
    setSending(true);
    void retrySession(sessionId).finally(() => setSending(false));
  };

  useEffect(() => {
    if (!failure || !active) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isRetryKey(e) || useStore.getState().dialog !== null) return;
      if (e.target instanceof Element && e.target.closest('.terminal-panel') !== null) return;
      e.preventDefault();
      retry();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!failure) return null;
  return (
    <div className={`turn-failure turn-failure-${failure.kind}`} role="group" aria-label="Reply failed">
      <TriangleAlert size={16} aria-hidden="true" />
      {/* The error itself is the notice just above: this line says what Retry does, not it again. */}
      <p>
        {failure.kind === 'exit'
          ? 'Stopped — the app closed before the reply finished.'
          : 'The reply failed.'}{' '}
        <span className="muted">Retry asks again with your last message.</span>
      </p>
      <kbd className="muted" aria-hidden="true">
        Alt+R
      </kbd>
      <button
        type="button"
        className="primary"
        onClick={retry}
        disabled={sending}
        aria-keyshortcuts="Alt+R"
        title="Ask again, without repeating your message (Alt+R)"
      >
        <RotateCw size={14} aria-hidden="true" /> Retry
      </button>
    </div>
  );
}
