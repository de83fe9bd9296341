import { useCallback, useLayoutEffect, useRef } from 'react';
import { isWorking } from '@shared/domain/session';
import { requestNotificationPermission } from '../notifications/notify';
import { sendMessage, stopSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { setDraft, useDrafts } from './drafts';
import { useSlashCommands } from '../commands/useSlashCommands';
import { ArchiveDialog } from './ArchiveDialog';
import { useRestoredDraft } from '../rewind/rewind-actions';
import { recheckWorktree, useWorktreeGone, WorktreeGone } from '../worktrees/WorktreeGone';

/**
 * The message box: Enter sends, Shift+Enter is a new line (Esc stops a running reply: a window-wide
 * key, see app/shortcuts.ts). It takes the cursor when its session is switched to or created.
 */
export function Composer({ sessionId }: { sessionId: string }) {
  const draft = useDrafts((s) => s.drafts[sessionId] ?? '');
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));
  const box = useRef<HTMLTextAreaElement>(null);
  const takeFocus = useStore((s) => s.composerFocus === sessionId && s.tabs.active === sessionId);
  // A layout effect runs in the same task as the switch's render, before the next key arrives.
  useLayoutEffect(() => {
    if (!takeFocus) return;
    const el = box.current;
    if (el) {
      el.focus();
      // A fresh box puts the caret before a kept draft; typing carries on after it instead.
      el.setSelectionRange(el.value.length, el.value.length);
    }
    useStore.getState().requestComposerFocus(null);
  }, [takeFocus]);
  // A rewound or forked message comes back into the box (features/rewind).
  useRestoredDraft(
    sessionId,
    useCallback((text: string) => setDraft(sessionId, text), [sessionId]),
  );
  // `/` commands: the autocomplete over the box, and the built-ins run here instead of being sent.
  const slash = useSlashCommands({
    sessionId,
    draft,
    setDraft: (text) => setDraft(sessionId, text),
    ResumePanel: ArchiveDialog,
  });
  // A session whose worktree is gone gets the way on instead of a box to type in (features/worktrees).
  const worktreeGone = useWorktreeGone(sessionId);

  const send = async () => {
    const text = draft.trim();
    if (text === '' || working) return;
    requestNotificationPermission();
    if (await slash.run(text)) return;
    setDraft(sessionId, '');
    // Put the text back if the main process refused it, so nothing typed is lost.
    if (!(await sendMessage(sessionId, text))) {
      setDraft(sessionId, draft);
      recheckWorktree(sessionId);
    }
  };

  if (worktreeGone !== null)
    return (
      <WorktreeGone
        sessionId={sessionId}
        problem={worktreeGone}
        carry={(next) => draft !== '' && setDraft(next, draft)}
      />
    );
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {slash.popup}
      <textarea
        ref={box}
        {...slash.inputProps}
        aria-label="Message"
        placeholder={
          working ? 'Working… (Esc to stop)' : 'Message (Enter to send, Shift+Enter for a new line)'
        }
        value={draft}
        rows={3}
        onChange={(e) => setDraft(sessionId, e.target.value)}
        onKeyDown={(e) => {
          if (slash.onKeyDown(e)) return;
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
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
