import { useEffect } from 'react';
import { GitBranch } from 'lucide-react';
import { useStore } from '../../stores/store';
import { continueInMain, loadStatuses } from './worktree-actions';
import { useWorktrees } from './worktree-store';
import './worktrees.css';

/**
 * Why a session cannot go on where it is: its worktree was deleted (or its folder is now something
 * else); null while it is there, and for sessions without one. Opening the session asks the main
 * process again, so a folder removed by hand shows before anything is typed.
 */
export function useWorktreeGone(sessionId: string): string | null {
  const inWorktree = useStore((s) => s.sessions[sessionId]?.worktree !== undefined);
  const status = useWorktrees((s) => s.statuses[sessionId]);
  useEffect(() => {
    if (inWorktree) void loadStatuses();
  }, [inWorktree, sessionId]);
  if (!inWorktree || !status || status.exists) return null;
  return status.problem ?? 'Its worktree was deleted.';
}

/** After a refused send: a worktree session asks again whether its worktree is still there. */
export function recheckWorktree(sessionId: string): void {
  if (useStore.getState().sessions[sessionId]?.worktree) void loadStatuses();
}

/**
 * What the composer shows instead of the message box when the session's worktree is gone: why, and
 * the way on (a new session in the main checkout with this conversation). Nothing can be sent here,
 * so no message fails obscurely and no tool runs in a folder that is not the worktree.
 */
export function WorktreeGone({
  sessionId,
  problem,
  carry,
}: {
  sessionId: string;
  problem: string;
  /** Hands the new session what this one had in its box. */
  carry: (nextId: string) => void;
}) {
  return (
    <div className="composer worktree-gone" role="region" aria-label="Worktree gone">
      <GitBranch size={16} aria-hidden="true" />
      <p>
        {problem} Nothing can run in it any more: fork it to continue in the main checkout, in a new session
        with these messages.
      </p>
      <button type="button" className="primary" onClick={() => void continueInMain(sessionId, carry)}>
        Continue in main checkout
      </button>
    </div>
  );
}
