import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { exactSessionCost, formatSessionCost } from '@shared/domain/cost';
import { openSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { Inbox } from '../permissions/Inbox';
import { WorktreeGroups } from '../worktrees/WorktreeGroups';
import { labelWithBadge, StateBadge, useBadge } from './StateBadge';
import { heldOrder } from './sidebar-order';
import './session-tags.css';
import './sidebar.css';

function SidebarEntry({ sessionId }: { sessionId: string }) {
  const session = useStore((s) => s.sessions[sessionId]);
  const active = useStore((s) => s.tabs.active === sessionId);
  const badge = useBadge(sessionId);
  if (!session) return null;
  // A background session has no tab: its entry is where the person sees it work, wait or finish.
  const label = `${labelWithBadge(session.title, badge)}${session.background ? ', in the background' : ''}`;
  return (
    <li>
      <button
        type="button"
        className={`session-entry${active ? ' active' : ''}${session.background ? ' background' : ''}`}
        aria-current={active ? 'true' : undefined}
        onClick={() => void openSession(sessionId)}
        title={`${session.title} — ${session.model}${session.background ? ' (in the background: click to bring it back)' : ''}`}
        aria-label={label}
        data-badge={badge}
        data-background={session.background ? 'true' : undefined}
      >
        <span className="session-title">{session.title}</span>
        <StateBadge sessionId={sessionId} />
        <span className="session-meta">
          {session.background ? <span className="session-tag">background</span> : null}
          {session.coordinator ? <span className="session-tag">team</span> : null}
          <span title={exactSessionCost(session.costUsd, session.costKind)}>
            {formatSessionCost(session.costUsd, session.costKind)}
          </span>
        </span>
      </button>
    </li>
  );
}

/** Folds or unfolds the sidebar (also Ctrl+B). */
function SidebarToggle({ collapsed }: { collapsed: boolean }) {
  const label = collapsed ? 'Show sidebar' : 'Hide sidebar';
  const Icon = collapsed ? PanelLeftOpen : PanelLeftClose;
  return (
    <button
      type="button"
      className="sidebar-toggle"
      aria-label={label}
      aria-expanded={!collapsed}
      title={`${label} (Ctrl+B)`}
      onClick={() => useStore.getState().setSidebarCollapsed(!collapsed)}
    >
      <Icon size={18} aria-hidden="true" />
    </button>
  );
}

/** The sidebar folded to a rail: a way back, and what waits for the person. */
function CollapsedSidebar() {
  const waiting = useStore((s) => s.pending.length);
  return (
    <div className="sidebar collapsed">
      <SidebarToggle collapsed />
      {waiting > 0 ? (
        <button
          type="button"
          className="sidebar-rail-count"
          aria-label={`${waiting} waiting for you: show the Inbox`}
          title={`${waiting} waiting for you: show the Inbox`}
          onClick={() => useStore.getState().setSidebarCollapsed(false)}
        >
          {waiting}
        </button>
      ) : null}
    </div>
  );
}

/**
 * Every session of the project, newest activity first, whether or not its tab is open. While the
 * pointer is over the list its order holds still (see sidebar-order.ts).
 */
export function Sidebar() {
  const collapsed = useStore((s) => s.sidebarCollapsed);
  // Folded (Ctrl+B) with the pointer over the list, the list goes before pointerleave can fire: the
  // expanded sidebar's held order goes with it, rather than staying frozen once it unfolds.
  return collapsed ? <CollapsedSidebar /> : <ExpandedSidebar />;
}

function ExpandedSidebar() {
  const current = useStore(
    useShallow((s) =>
      Object.values(s.sessions)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt))
        .map((x) => x.id),
    ),
  );
  const [held, setHeld] = useState<string[] | null>(null);
  const ordered = held === null ? current : heldOrder(held, current);
  // Sessions in their own worktree are listed in groups below, one per worktree.
  const inWorktree = useStore(useShallow((s) => ordered.filter((id) => s.sessions[id]?.worktree)));
  const ids = ordered.filter((id) => !inWorktree.includes(id));
  return (
    <div className="sidebar">
      <div className="sidebar-head">
        <SidebarToggle collapsed={false} />
      </div>
      <Inbox />
      <nav aria-label="Sessions">
        <h2>Sessions</h2>
        {ids.length + inWorktree.length === 0 ? <p className="muted">No sessions yet.</p> : null}
        <ul onPointerEnter={() => setHeld(current)} onPointerLeave={() => setHeld(null)}>
          {ids.map((id) => (
            <SidebarEntry key={id} sessionId={id} />
          ))}
        </ul>
        <WorktreeGroups ids={inWorktree} entry={(id) => <SidebarEntry key={id} sessionId={id} />} />
      </nav>
    </div>
  );
}
