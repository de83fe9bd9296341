import { useEffect, useState } from 'react';
import { GitBranch } from 'lucide-react';
import { Dialog } from '../../components/Dialog';
import { newSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { createWorktreeSession, errorText, loadRepoInfo } from './worktree-actions';
import { useWorktrees } from './worktree-store';
import './worktrees.css';

/**
 * The new-session flow with its worktree option: "Own worktree" (ticked when the setting
 * `worktrees.default` is on; off and disabled outside git), the base branch, and "Fetch first".
 */
function NewSessionDialog({ onClose }: { onClose: () => void }) {
  const projectId = useStore((s) => s.project?.id ?? null);
  const info = useWorktrees((s) => (s.info?.projectId === projectId ? s.info.repo : null));
  const [own, setOwn] = useState<boolean | null>(null);
  const [base, setBase] = useState<string | null>(null);
  const [fetchFirst, setFetchFirst] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isGit = info?.isGit === true;
  const ownWorktree = isGit && (own ?? info.defaultOn);
  const branch = base ?? info?.current ?? info?.branches[0] ?? '';

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      if (ownWorktree) await createWorktreeSession(branch, fetchFirst);
      else await newSession({ worktree: false });
      onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog label="New session" onClose={onClose} className="worktree-dialog">
      <h2>New session</h2>
      <label className="worktree-check">
        <span>
          <input
            type="checkbox"
            checked={ownWorktree}
            disabled={!isGit || busy}
            onChange={(e) => setOwn(e.target.checked)}
          />{' '}
          Own worktree
        </span>
        <span className="muted">
          {info === null
            ? 'Checking the repository…'
            : isGit
              ? 'Works on a new branch in its own folder; the main checkout stays as it is.'
              : 'This folder is not in a git repository.'}
        </span>
      </label>
      {ownWorktree ? (
        <div className="worktree-options">
          <label>
            Base branch
            <select value={branch} disabled={busy} onChange={(e) => setBase(e.target.value)}>
              {info.branches.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
          </label>
          <label className="worktree-check">
            <span>
              <input
                type="checkbox"
                checked={fetchFirst}
                disabled={busy}
                onChange={(e) => setFetchFirst(e.target.checked)}
              />{' '}
              Fetch first
            </span>
          </label>
        </div>
      ) : null}
      {error !== null ? (
        <p role="alert" className="worktree-error">
          {error}
        </p>
      ) : null}
      <div className="worktree-buttons">
        <button
          type="button"
          className="primary"
          disabled={busy || (ownWorktree && branch === '')}
          onClick={() => void start()}
        >
          {busy ? 'Starting…' : 'Start session'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

/** The tab strip's button that opens the new-session flow with its options. */
export function NewSessionOptionsButton() {
  const open = useWorktrees((s) => s.creating);
  const projectId = useStore((s) => s.project?.id ?? null);
  useEffect(() => {
    if (projectId !== null) void loadRepoInfo();
  }, [projectId]);
  const close = () => useWorktrees.setState({ creating: false });
  return (
    <>
      <button
        type="button"
        className="new-tab new-team"
        aria-label="New session with options"
        title="New session with options: its own git worktree, base branch"
        onClick={() => {
          void loadRepoInfo();
          useWorktrees.setState({ creating: true });
        }}
      >
        <GitBranch size={16} aria-hidden="true" /> Worktree
      </button>
      {open ? <NewSessionDialog onClose={close} /> : null}
    </>
  );
}
