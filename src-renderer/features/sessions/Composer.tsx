import { isWorking } from '@shared/domain/session';
import { requestNotificationPermission } from '../notifications/notify';
import { sendMessage, stopSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { setDraft, useDrafts } from './drafts';

/** The message box: Enter sends, Shift+Enter is a new line, Escape stops a running reply. */
export function Composer({ sessionId }: { sessionId: string }) {
  const draft = useDrafts((s) => s.drafts[sessionId] ?? '');
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));

  const send = async () => {
    const text = draft.trim();
    if (text === '' || working) return;
    requestNotificationPermission();
    setDraft(sessionId, '');
    // Put the text back if the main process refused it, so nothing typed is lost.
    if (!(await sendMessage(sessionId, text))) setDraft(sessionId, draft);
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder={
          working ? 'Working… (Esc to stop)' : 'Message (Enter to send, Shift+Enter for a new line)'
        }
        value={draft}
        rows={3}
        onChange={(e) => setDraft(sessionId, e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          } else if (e.key === 'Escape' && working) {
            e.preventDefault();
            void stopSession(sessionId);
          }
        }}
      />
      {working ? (
        <button type="button" className="stop" onClick={() => void stopSession(sessionId)}>
          Stop
        </button>
      ) : (
        <button type="submit" className="primary" disabled={draft.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
