import { useEffect, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { GitBranch } from 'lucide-react';
import { useStore } from '../../stores/store';
import { loadStatuses } from './worktree-actions';
import { useWorktrees } from './worktree-store';
import './worktrees.css';

/** "↑2 ↓1" and its words for a screen reader. */
export function aheadBehind(ahead: number, behind: number): { text: string; words: string } {
  return {
    text: `↑${ahead} ↓${behind}`,
    words: `${ahead} ahead, ${behind} behind`,
  };
}

/**
 * The sidebar's worktree sessions, grouped by worktree: its branch, ↑ahead ↓behind its base, and
 * Finish… (keep, merge or delete). Counts are re-read when one of these sessions changes.
 */
export function WorktreeGroups({ ids, entry }: { ids: string[]; entry: (id: string) => ReactNode }) {
  const groups = useStore(
    useShallow((s) =>
      ids.flatMap((id) => {
        const w = s.sessions[id]?.worktree;
        return w ? [`${w.path}\n${w.branch}\n${w.base}\n${id}`] : [];
      }),
    ),
  );
  // Changes of these sessions (a turn ended, a message) may have moved their branches.
  const key = useStore((s) =>
    ids.map((id) => `${id}:${s.sessions[id]?.updatedAt ?? ''}:${s.sessions[id]?.activity ?? ''}`).join('|'),
  );
  useEffect(() => {
    if (key !== '') void loadStatuses();
  }, [key]);
  // Branches also move outside the app (a commit or merge in a terminal): read again when the
  // window comes back into use, rather than on a timer.
  const any = key !== '';
  useEffect(() => {
    if (!any) return;
    const again = () => {
      if (document.visibilityState === 'visible') void loadStatuses();
    };
    window.addEventListener('focus', again);
    document.addEventListener('visibilitychange', again);
    return () => {
      window.removeEventListener('focus', again);
      document.removeEventListener('visibilitychange', again);
    };
  }, [any]);
  const statuses = useWorktrees((s) => s.statuses);
  if (groups.length === 0) return null;
  const byPath = new Map<string, { branch: string; base: string; ids: string[] }>();
  for (const g of groups) {
    const [path = '', branch = '', base = '', id = ''] = g.split('\n');
    const group = byPath.get(path) ?? { branch, base, ids: [] };
    group.ids.push(id);
    byPath.set(path, group);
  }
  return (
    <div className="worktree-groups">
      <h2>Worktrees</h2>
      {[...byPath.entries()].map(([path, g]) => {
        const st = g.ids.map((id) => statuses[id]).find((x) => x !== undefined);
        // A removed worktree's counts say nothing (its branch may be gone too): only the tag shows.
        const counts = st?.exists ? aheadBehind(st.ahead, st.behind) : null;
        return (
          <section key={path} className="worktree-group" aria-label={`Worktree ${g.branch}`} title={path}>
            <div className="worktree-head">
              <GitBranch size={14} aria-hidden="true" />
              <span className="worktree-branch">{g.branch}</span>
              {counts ? (
                <span
                  className="worktree-counts"
                  aria-label={counts.words}
                  title={`Against ${g.base}: ${counts.words}`}
                >
                  {counts.text}
                </span>
              ) : null}
              {st && !st.exists ? <span className="session-tag">removed</span> : null}
              {st && st.dirty > 0 ? <span className="session-tag">{st.dirty} changed</span> : null}
              <button
                type="button"
                className="worktree-finish"
                aria-label={`Finish worktree ${g.branch}`}
                title={`Keep, merge into ${g.base}, or delete the worktree and its branch`}
                onClick={() => useWorktrees.setState({ closing: g.ids[0] ?? null })}
              >
                Finish…
              </button>
            </div>
            <ul>{g.ids.map((id) => entry(id))}</ul>
          </section>
        );
      })}
    </div>
  );
}
