import { Dialog } from '../../components/Dialog';
import { closeRewind, runRewind, useRewind } from './rewind-actions';
import './rewind.css';

const short = (hash: string | null) => (hash === null ? 'none' : hash.slice(0, 8));

/**
 * The confirm dialog of a rewind: how much of the conversation goes, each file put back or deleted,
 * which of them someone else changed since (their change would be lost), files that are left alone
 * and why, and whether HEAD moved. Nothing happens until the person presses the button.
 */
export function RewindDialog({ sessionId }: { sessionId: string }) {
  const { target, plan, error, running } = useRewind();
  if (target?.sessionId !== sessionId) return null;
  const conflicts = plan?.files.filter((f) => f.changedSince && f.refused === null) ?? [];
  return (
    <Dialog label="Rewind to here" onClose={closeRewind} className="rewind-dialog">
      <h2>Rewind to this message?</h2>
      {!plan && !error && <p>Looking at what changed since…</p>}
      {error && (
        <p role="alert" className="rewind-error">
          {error}
        </p>
      )}
      {plan && (
        <>
          <p>
            The conversation ends before this message ({plan.itemsRemoved} item
            {plan.itemsRemoved === 1 ? '' : 's'} removed); the message goes back into the box.
            {plan.files.length === 0 ? ' No files were changed since.' : ' Files put back:'}
          </p>
          {plan.files.length > 0 && (
            <ul className="rewind-files" aria-label="Files">
              {plan.files.map((f) => (
                <li key={f.path} data-conflict={f.changedSince && f.refused === null ? 'true' : undefined}>
                  <code title={f.path}>{f.display}</code>{' '}
                  <span className="rewind-action">
                    {f.action === 'delete' ? 'deleted (created since)' : 'restored'}
                  </span>
                  {f.refused !== null ? (
                    <span className="rewind-note"> — left as it is: {f.refused}</span>
                  ) : f.changedSince ? (
                    <span className="rewind-note rewind-warn">
                      {' '}
                      — changed by someone else since: that change will be lost
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {plan.headMoved && (
            <p className="rewind-warn">
              HEAD moved since ({short(plan.headMoved.then)} → {short(plan.headMoved.now)}). Commits are not
              touched: only the files above change in the working tree.
            </p>
          )}
          {conflicts.length > 0 && (
            <p className="rewind-warn">
              {conflicts.length} file{conflicts.length === 1 ? ' was' : 's were'} changed after the agent:
              what is there now is kept in the session folder, but the file will be overwritten.
            </p>
          )}
        </>
      )}
      <div className="row end">
        <button type="button" onClick={closeRewind}>
          Cancel
        </button>
        <button
          type="button"
          className={plan?.needsConfirmation ? 'danger' : 'primary'}
          disabled={!plan || running}
          onClick={() => void runRewind()}
        >
          {plan?.needsConfirmation ? 'Rewind anyway' : 'Rewind'}
        </button>
      </div>
    </Dialog>
  );
}
