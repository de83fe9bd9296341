import { useCallback, useEffect, useState } from 'react';
import { isWorking } from '@shared/domain/session';
import type { ChangedFile, ChangeSet, FileDiff } from '@shared/ipc/contract/changes';
import { sendMessage } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';
import { changesApi } from './changes-api';
import { DiffPane } from './DiffPane';
import { reviewMessage } from './review-message';
import { useReview, useSessionComments } from './review-store';
import './changes.css';

/**
 * A session's Changes view: the changed files, the selected file's diff (unified or side by side),
 * line comments sent to the agent as one message, staging and discarding hunks, a commit with a
 * message made from the file list, and "Open in editor" (desktop app only).
 */

const LETTER: Record<ChangedFile['status'], string> = {
  added: 'A',
  untracked: 'U',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  typechange: 'T',
};

async function attempt<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    showToast(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

export function ChangesView({ sessionId }: { sessionId: string }) {
  const [set, setSet] = useState<ChangeSet | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [diff, setDiff] = useState<FileDiff | null>(null);
  const [commitText, setCommitText] = useState<string | null>(null);
  const layout = useReview((s) => s.layout);
  const comments = useSessionComments(sessionId);
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));

  // Bumped to list the changes again (the Refresh button, after staging, discarding, committing).
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  // Listed again when asked and as the session starts or ends a turn (its edits show without a click).
  useEffect(() => {
    let live = true;
    void attempt('Listing the changes', () => changesApi.list(sessionId)).then((next) => {
      if (!live || !next) return;
      setSet(next);
      setSelected((cur) =>
        cur !== null && next.files.some((f) => f.path === cur) ? cur : (next.files[0]?.path ?? null),
      );
    });
    return () => {
      live = false;
    };
  }, [sessionId, tick, working]);
  // The selected file's diff, again after every refresh (`set` changes); a late answer for a file no
  // longer selected is dropped.
  useEffect(() => {
    if (selected === null) return;
    let live = true;
    changesApi.diff(sessionId, selected).then(
      (d) => {
        if (live) setDiff(d);
      },
      (error: unknown) => {
        if (live) showToast(`Reading the diff: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    return () => {
      live = false;
    };
  }, [sessionId, selected, set]);

  const after = async (what: string, run: () => Promise<unknown>) => {
    if ((await attempt(what, run)) !== undefined) refresh();
  };

  const send = async () => {
    if (comments.length === 0) return;
    if (await sendMessage(sessionId, reviewMessage(comments))) {
      useReview.getState().clearComments(sessionId);
      // Back to the transcript, where the agent's answer to the comments arrives.
      useReview.getState().setOpen(sessionId, false);
    }
  };

  const file = set?.files.find((f) => f.path === selected) ?? null;
  const source =
    set === null
      ? 'Loading…'
      : set.source === 'not-git'
        ? 'This project is not in a git repository.'
        : set.source === 'worktree'
          ? `Branch ${set.branch ?? '?'} against ${set.base ?? '?'}`
          : 'Uncommitted changes against HEAD';

  return (
    <section className="changes-view" aria-label="Changes">
      <div className="cv-bar">
        <h2>Changes</h2>
        <span className="muted cv-source">{source}</span>
        <span className="spacer" />
        <div className="cv-toggle" role="group" aria-label="Diff layout">
          <button
            type="button"
            className="small"
            aria-pressed={layout === 'unified'}
            onClick={() => useReview.getState().setLayout('unified')}
          >
            Unified
          </button>
          <button
            type="button"
            className="small"
            aria-pressed={layout === 'split'}
            onClick={() => useReview.getState().setLayout('split')}
          >
            Side by side
          </button>
        </div>
        <button type="button" className="small" onClick={refresh}>
          Refresh
        </button>
        <button
          type="button"
          className="small"
          disabled={!set?.files.length}
          onClick={() =>
            void attempt('Writing a commit message', () => changesApi.suggestMessage(sessionId)).then(
              (r) => r && setCommitText(r.message),
            )
          }
        >
          Commit…
        </button>
        <button
          type="button"
          className="small primary"
          disabled={comments.length === 0 || working}
          title={
            working ? 'The session is working; send when it is done' : 'Send every comment as one message'
          }
          onClick={() => void send()}
        >
          Send {comments.length} comment{comments.length === 1 ? '' : 's'}
        </button>
        <button
          type="button"
          className="small"
          onClick={() => useReview.getState().setOpen(sessionId, false)}
        >
          Close
        </button>
      </div>
      {commitText !== null ? (
        <form
          className="cv-commit"
          onSubmit={(e) => {
            e.preventDefault();
            void after('Committing', async () => {
              const r = await changesApi.commit(sessionId, commitText);
              showToast(`Committed ${r.commit.slice(0, 7)} (${r.files} file${r.files === 1 ? '' : 's'})`);
              setCommitText(null);
              return r;
            });
          }}
        >
          <textarea
            aria-label="Commit message"
            value={commitText}
            rows={4}
            onChange={(e) => setCommitText(e.target.value)}
          />
          <div className="cv-commit-buttons">
            <span className="muted">Commits what is staged; with nothing staged, every change listed.</span>
            <button type="submit" className="small primary" disabled={commitText.trim() === ''}>
              Commit
            </button>
            <button type="button" className="small" onClick={() => setCommitText(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <div className="cv-body">
        <ul className="cv-files" aria-label="Changed files">
          {set?.files.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                aria-current={f.path === selected ? 'true' : undefined}
                title={f.oldPath ? `${f.oldPath} → ${f.path}` : f.path}
                onClick={() => setSelected(f.path)}
              >
                <span className={`cv-status cv-status-${f.status}`} aria-label={f.status}>
                  {LETTER[f.status]}
                </span>
                <span className="cv-path">{f.path}</span>
                {f.binary ? (
                  <span className="cv-badge">binary</span>
                ) : (
                  <span className="cv-counts">
                    <span className="cv-plus">+{f.additions ?? 0}</span>{' '}
                    <span className="cv-minus">−{f.deletions ?? 0}</span>
                  </span>
                )}
                {f.symlink ? <span className="cv-badge">link</span> : null}
              </button>
            </li>
          ))}
          {set && set.files.length === 0 && set.source !== 'not-git' ? (
            <li className="muted">No changes.</li>
          ) : null}
          {set?.truncated ? <li className="muted">More files changed than are listed.</li> : null}
        </ul>
        <div className="cv-main">
          {file ? (
            <div className="cv-file-bar">
              <span className="cv-file-name" title={file.path}>
                {file.path}
              </span>
              {file.symlink ? (
                <span className="cv-badge">symbolic link: its target is shown, not followed</span>
              ) : null}
              <span className="spacer" />
              <button
                type="button"
                className="small"
                onClick={() => void after('Staging', () => changesApi.stageFile(sessionId, file.path))}
              >
                Stage file
              </button>
              <button
                type="button"
                className="small"
                onClick={() =>
                  void attempt('Opening in the editor', () => changesApi.openInEditor(sessionId, file.path))
                }
              >
                Open in editor
              </button>
            </div>
          ) : null}
          {diff && diff.path === selected ? (
            diff.binary ? (
              <p className="muted cv-note">Binary file: no text diff.</p>
            ) : diff.hunks.length === 0 ? (
              <p className="muted cv-note">No text changes (an empty file, or only its mode changed).</p>
            ) : (
              <>
                {diff.truncated ? (
                  <p className="muted cv-note">This diff is long; only its first part is shown.</p>
                ) : null}
                <DiffPane
                  sessionId={sessionId}
                  diff={diff}
                  onStageHunk={(i, header) =>
                    void after('Staging the hunk', () =>
                      changesApi.stageHunk(sessionId, diff.path, i, header),
                    )
                  }
                  onDiscardHunk={(i, header) =>
                    void after('Discarding the hunk', () =>
                      changesApi.discardHunk(sessionId, diff.path, i, header),
                    )
                  }
                />
              </>
            )
          ) : null}
        </div>
      </div>
    </section>
  );
}
