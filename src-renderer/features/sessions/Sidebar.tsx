import { useShallow } from 'zustand/react/shallow';
import { formatSessionCost } from '@shared/domain/cost';
import { openSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { Inbox } from '../permissions/Inbox';
import { labelWithBadge, StateBadge, useBadge } from './StateBadge';
import './session-tags.css';

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
          {formatSessionCost(session.costUsd, session.costKind)}
        </span>
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
