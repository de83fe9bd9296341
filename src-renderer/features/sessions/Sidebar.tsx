import { useShallow } from 'zustand/react/shallow';
import { formatSessionCost } from '@shared/domain/cost';
import { openSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { Inbox } from '../permissions/Inbox';
import { labelWithBadge, StateBadge, useBadge } from './StateBadge';

function SidebarEntry({ sessionId }: { sessionId: string }) {
  const session = useStore((s) => s.sessions[sessionId]);
  const active = useStore((s) => s.tabs.active === sessionId);
  const badge = useBadge(sessionId);
  if (!session) return null;
  return (
    <li>
      <button
        type="button"
        className={`session-entry${active ? ' active' : ''}`}
        aria-current={active ? 'true' : undefined}
        onClick={() => void openSession(sessionId)}
        title={`${session.title} — ${session.model}`}
        aria-label={labelWithBadge(session.title, badge)}
        data-badge={badge}
      >
        <span className="session-title">{session.title}</span>
        <StateBadge sessionId={sessionId} />
        <span className="session-meta">{formatSessionCost(session.costUsd, session.costKind)}</span>
      </button>
    </li>
  );
}

/** Every session of the project, newest activity first, whether or not its tab is open. */
export function Sidebar() {
  const ids = useStore(
    useShallow((s) =>
      Object.values(s.sessions)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt))
        .map((x) => x.id),
    ),
  );
  return (
    <div className="sidebar">
      <Inbox />
      <nav aria-label="Sessions">
        <h2>Sessions</h2>
        {ids.length === 0 ? <p className="muted">No sessions yet.</p> : null}
        <ul>
          {ids.map((id) => (
            <SidebarEntry key={id} sessionId={id} />
          ))}
        </ul>
      </nav>
    </div>
  );
}
