import { askRewind, forkFrom } from './rewind-actions';
import './rewind.css';

/**
 * "Rewind to here" and "Fork from here" on one of the person's messages: shown on hover and when
 * the keyboard reaches the message (focus-within), so both are reachable with Tab.
 */
export function MessageActions({ sessionId, messageId }: { sessionId: string; messageId: string }) {
  return (
    <div className="message-actions" role="group" aria-label="Message actions">
      <button type="button" onClick={() => void askRewind(sessionId, messageId)}>
        Rewind to here
      </button>
      <button type="button" onClick={() => void forkFrom(sessionId, messageId)}>
        Fork from here
      </button>
    </div>
  );
}
