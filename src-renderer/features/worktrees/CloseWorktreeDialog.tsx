import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useStore } from '../../stores/store';
import { errorText, loadStatuses, mergeWorktree, removeWorktree, worktreeLoss } from './worktree-actions';
import { useWorktrees } from './worktree-store';
import './worktrees.css';

type Outcome = { ok: boolean; text: string } | null;

/** "Deleting loses 2 uncommitted files (a, b) and 3 commits …": null when nothing would be lost. */
function lossWords(loss: { files: string[]; commits: number }, branch: string): string | null {
  const parts: string[] = [];
  const n = loss.files.length;
  if (n > 0)
    parts.push(
      `${n} uncommitted file${n === 1 ? '' : 's'} (${loss.files.slice(0, 5).join(', ')}${n > 5 ? ', …' : ''})`,
    );
  if (loss.commits > 0)
    parts.push(
      `${loss.commits} commit${loss.commits === 1 ? '' : 's'} on ${branch} that no other branch has`,
    );
  return parts.length === 0 ? null : `Deleting loses ${parts.join(' and ')}. Delete anyway?`;
}

/** Keep / Merge into <base> / Delete worktree and branch, with what happened in words. */
function CloseDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const live = useStore((s) => s.sessions[sessionId]);
  // Deleting archives the session, which takes it out of the store: the dialog still says what happened.
  const [opened] = useState(() => useStore.getState().sessions[sessionId]);
  const session = live ?? opened;
  const status = useWorktrees((s) => s.statuses[sessionId]);
  const [busy, setBusy] = useState(false);
  const [deleted, setDeleted] = useState(false);
  // The counts it shows are read afresh: files may have changed since the sidebar last asked.
  useEffect(() => {
    void loadStatuses();
  }, []);
  const [outcome, setOutcome] = useState<Outcome>(null);
  /** What deleting would lose, in words, once asked: the person confirms having read it. */
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const wt = session?.worktree;
  if (!session || !wt) return null;

  const run = async (what: () => Promise<string | null>) => {
    setBusy(true);
    // The last outcome answered the last question; this one gets its own.
    setOutcome(null);
    try {
      const text = await what();
      setOutcome(text === null ? null : { ok: true, text });
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
        {status?.problem != null && !deleted ? ` ${status.problem}` : ''}
      </p>
      {outcome ? (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'worktree-ok' : 'worktree-error'}>
          {outcome.text}
        </p>
      ) : null}
      {confirmDelete !== null ? (
        <p role="alert" className="worktree-error">
          {confirmDelete}
        </p>
      ) : null}
      <div className="worktree-buttons">
        <button type="button" disabled={busy} onClick={onClose}>
          {deleted ? 'Close' : 'Keep'}
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || deleted}
          onClick={() => void run(async () => (await mergeWorktree(sessionId)).message)}
        >
          Merge into {wt.base}
        </button>
        <button
          type="button"
          className="stop"
          disabled={busy || deleted}
          onClick={() =>
            void run(async () => {
              // Asked first: uncommitted files and commits no other branch has are lost for good.
              if (confirmDelete === null) {
                const lost = lossWords(await worktreeLoss(sessionId), wt.branch);
                if (lost !== null) {
                  setConfirmDelete(lost);
                  return null;
                }
              }
              const r = await removeWorktree(sessionId, confirmDelete !== null);
              setConfirmDelete(null);
              setDeleted(true);
              return r.archived
                ? `Deleted the worktree and the branch ${wt.branch}. The session is archived: restore it from Archived and deleted sessions to read it or continue it in the main checkout.`
                : `Deleted the worktree and the branch ${wt.branch}.`;
            })
          }
        >
          {confirmDelete !== null ? 'Delete anyway' : 'Delete worktree and branch'}
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
