import { useCallback, useEffect, useState } from 'react';
import { ArchiveRestore, Trash2, Undo2 } from 'lucide-react';
import type { StoredSession } from '@shared/ipc/contract/sessions';
import { Dialog } from '../../components/Dialog';
import { bringBack, deleteForever, listStored } from './archive-actions';
import './archive.css';

type View = 'archived' | 'trash';

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}

/** One put-away session: Restore, and in the trash "Delete forever" behind a second, explicit click. */
function StoredEntry({ view, s, onChange }: { view: View; s: StoredSession; onChange: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="stored-session">
      <span className="stored-title" title={s.title}>
        {s.title}
      </span>
      <span className="muted stored-when">
        {view === 'trash' && s.trashedAt ? `deleted ${when(s.trashedAt)}` : when(s.updatedAt)} ·{' '}
        {s.messageCount} messages
      </span>
      <span className="stored-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Restore ${s.title}`}
          onClick={() => void bringBack(view, s.id).then(onChange)}
        >
          {view === 'archived' ? (
            <ArchiveRestore size={14} aria-hidden="true" />
          ) : (
            <Undo2 size={14} aria-hidden="true" />
          )}
          Restore
        </button>
        {view === 'trash' && !confirming ? (
          <button
            type="button"
            className="icon-button"
            aria-label={`Delete ${s.title} forever`}
            onClick={() => setConfirming(true)}
          >
            <Trash2 size={14} aria-hidden="true" />
            Delete forever
          </button>
        ) : null}
        {confirming ? (
          <span role="group" aria-label={`Confirm deleting ${s.title} forever`} className="stored-confirm">
            <span>Erase its files? This cannot be undone.</span>
            <button type="button" className="stop" onClick={() => void deleteForever(s.id).then(onChange)}>
              Delete forever
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        ) : null}
      </span>
    </li>
  );
}

/** The project's archived sessions and its trash, each restorable. */
export function ArchiveDialog({ onClose, initial = 'archived' }: { onClose: () => void; initial?: View }) {
  const [view, setView] = useState<View>(initial);
  // Kept with the view it lists, so switching views shows "Loading…" rather than the other list.
  const [loaded, setLoaded] = useState<{ view: View; list: StoredSession[] } | null>(null);
  const refresh = useCallback(() => {
    void listStored(view).then((list) => setLoaded({ view, list: list ?? [] }));
  }, [view]);
  useEffect(() => refresh(), [refresh]);
  const list = loaded?.view === view ? loaded.list : null;
  return (
    <Dialog label="Archived and deleted sessions" onClose={onClose} className="archive-dialog">
      <h2>Archived and deleted sessions</h2>
      <div className="row" role="group" aria-label="Which sessions">
        <button type="button" aria-pressed={view === 'archived'} onClick={() => setView('archived')}>
          Archived
        </button>
        <button type="button" aria-pressed={view === 'trash'} onClick={() => setView('trash')}>
          Trash
        </button>
      </div>
      <p className="muted">
        {view === 'archived'
          ? 'Archived sessions are hidden from the tabs and the session list; restore one to use it again.'
          : 'Deleted sessions wait here, files intact, until you restore them or delete them forever.'}
      </p>
      {list === null ? <p className="muted">Loading…</p> : null}
      {list?.length === 0 ? (
        <p className="muted">{view === 'archived' ? 'No archived sessions.' : 'The trash is empty.'}</p>
      ) : null}
      <ul aria-label={view === 'archived' ? 'Archived sessions' : 'Trash'}>
        {(list ?? []).map((s) => (
          <StoredEntry key={s.id} view={view} s={s} onChange={refresh} />
        ))}
      </ul>
      <div className="row end">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
