import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useStore } from '../../stores/store';
import { errorText, mergeWorktree, removeWorktree } from './worktree-actions';
import { useWorktrees } from './worktree-store';
import './worktrees.css';

type Outcome = { ok: boolean; text: string } | null;

/** Keep / Merge into <base> / Delete worktree and branch, with what happened in words. */
function CloseDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const session = useStore((s) => s.sessions[sessionId]);
  const status = useWorktrees((s) => s.statuses[sessionId]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const wt = session?.worktree;
  if (!session || !wt) return null;

  const run = async (what: () => Promise<string>) => {
    setBusy(true);
    try {
      setOutcome({ ok: true, text: await what() });
    } catch (e) {
      setOutcome({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };
  const dirty = status?.dirty ?? 0;
  return (
    <Dialog label={`Close worktree ${wt.branch}`} onClose={onClose} className="worktree-dialog">
      <h2>Worktree {wt.branch}</h2>
      <p className="muted worktree-where" title={wt.path}>
        “{session.title}” works in {wt.path} on {wt.branch}, from {wt.base}.
        {status
          ? ` ${status.ahead} ahead, ${status.behind} behind; ${dirty} uncommitted file${dirty === 1 ? '' : 's'}.`
          : ''}
      </p>
      {outcome ? (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'worktree-ok' : 'worktree-error'}>
          {outcome.text}
        </p>
      ) : null}
      {confirmDelete ? (
        <p role="alert" className="worktree-error">
          The worktree has {dirty} uncommitted file{dirty === 1 ? '' : 's'}. Delete them with the worktree and
          its branch?
        </p>
      ) : null}
      <div className="worktree-buttons">
        <button type="button" disabled={busy} onClick={onClose}>
          Keep
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void run(async () => (await mergeWorktree(sessionId)).message)}
        >
          Merge into {wt.base}
        </button>
        <button
          type="button"
          className="stop"
          disabled={busy}
          onClick={() => {
            if (dirty > 0 && !confirmDelete) return setConfirmDelete(true);
            void run(async () => {
              await removeWorktree(sessionId, confirmDelete);
              setConfirmDelete(false);
              return `Deleted the worktree and the branch ${wt.branch}.`;
            });
          }}
        >
          {confirmDelete ? 'Delete anyway' : 'Delete worktree and branch'}
        </button>
      </div>
    </Dialog>
  );
}

/**
 * The close dialog of worktree sessions: opened by a sidebar group's Finish…, and when a worktree
 * session's tab closes (not when it goes to the background).
 */
export function CloseWorktreeDialog() {
  const closing = useWorktrees((s) => s.closing);
  const open = useStore((s) => s.tabs.open);
  const projectId = useStore((s) => s.project?.id ?? null);
  const before = useRef<{ projectId: string | null; open: readonly string[] }>({ projectId, open });
  useEffect(() => {
    // Another project's tabs replacing these is no tab being closed.
    const gone =
      before.current.projectId === projectId ? before.current.open.filter((id) => !open.includes(id)) : [];
    before.current = { projectId, open };
    const sessions = useStore.getState().sessions;
    const closed = gone.find((id) => sessions[id]?.worktree && !sessions[id].background);
    if (closed !== undefined) useWorktrees.setState({ closing: closed });
  }, [open, projectId]);
  if (closing === null) return null;
  return (
    <CloseDialog key={closing} sessionId={closing} onClose={() => useWorktrees.setState({ closing: null })} />
  );
}
