import { useState } from 'react';
import { Archive, Trash2 } from 'lucide-react';
import { isWorking } from '@shared/domain/session';
import { useStore } from '../../stores/store';
import { archiveSession, trashSession } from './archive-actions';
import './archive.css';

/**
 * Archive and Delete for one session. A working session must be stopped first: the tooltips say so
 * (the main process refuses, and the toast says so). Delete asks once more and only moves the session to the trash.
 */
export function SessionPutAway({ sessionId }: { sessionId: string }) {
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));
  const title = useStore((s) => s.sessions[sessionId]?.title ?? 'this session');
  const [confirming, setConfirming] = useState(false);
  // Not disabled while it works: a click then says why (stop it first) instead of a dead button.
  const why = working ? ' (stop it first)' : '';
  if (confirming)
    return (
      <span role="group" aria-label={`Confirm deleting ${title}`} className="put-away-confirm">
        Move to the trash?
        <button type="button" className="small stop" onClick={() => void trashSession(sessionId)}>
          Delete
        </button>
        <button type="button" className="small" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </span>
    );
  return (
    <>
      <button
        type="button"
        className="small icon-button"
        aria-label={`Archive ${title}`}
        title={`Hide it from the tabs and the list; restore it from Archive in the header${why}`}
        onClick={() => void archiveSession(sessionId)}
      >
        <Archive size={14} aria-hidden="true" />
        Archive
      </button>
      <button
        type="button"
        className="small icon-button"
        aria-label={`Delete ${title}`}
        title={`Move it to the trash; restore it from Archive → Trash in the header${why}`}
        onClick={() => setConfirming(true)}
      >
        <Trash2 size={14} aria-hidden="true" />
        Delete
      </button>
    </>
  );
}
