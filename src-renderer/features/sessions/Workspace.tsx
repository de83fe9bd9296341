import { useShallow } from 'zustand/react/shallow';
import { Pin, PinOff } from 'lucide-react';
import { useStore } from '../../stores/store';
import { tiledSessions } from '../../stores/workspace-slice';
import { SessionView } from './SessionView';
import { SandboxBanner } from './SandboxBanner';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { TabStrip } from './TabStrip';
import { newSession } from '../../ipc/actions';
import './workspace.css';

/** What side by side is showing, and the one-click ways to change it. */
function SideBySideBar() {
  const open = useStore((s) => s.tabs.open);
  const pinned = useStore((s) => s.tabs.open.filter((id) => s.tiled.includes(id)).length);
  const setTiled = (ids: string[]) => useStore.getState().setTiled(ids);
  return (
    <div className="side-by-side-bar" role="toolbar" aria-label="Side by side">
      <span className="muted">
        {pinned > 0
          ? `Showing ${pinned} pinned session${pinned === 1 ? '' : 's'} and the active tab.`
          : 'Showing the sessions that need you and the active tab. Pin others in All tabs.'}
      </span>
      {pinned < open.length ? (
        <button type="button" className="small" onClick={() => setTiled(open)}>
          <Pin size={12} aria-hidden="true" /> Tile all open tabs
        </button>
      ) : null}
      {pinned > 0 ? (
        <button type="button" className="small" onClick={() => setTiled([])}>
          <PinOff size={12} aria-hidden="true" /> Unpin all
        </button>
      ) : null}
    </div>
  );
}

/** Sidebar, tab strip, the session panel(s) and the status bar of one open project. */
export function Workspace() {
  const active = useStore((s) => s.tabs.active);
  const layout = useStore((s) => s.layout);
  // Tabs show one panel; "side by side" tiles the sessions the person pinned (or those needing them).
  const tiled = useStore(useShallow((s) => (s.layout === 'grid' ? tiledSessions(s) : [])));
  const shown = layout === 'grid' ? tiled : active ? [active] : [];
  return (
    <div className="workspace">
      <Sidebar />
      <main className="main">
        <TabStrip />
        <SandboxBanner />
        {layout === 'grid' && active !== null ? <SideBySideBar /> : null}
        {shown.length === 0 ? (
          <div className="empty">
            <p>No session open.</p>
            <div className="row center">
              <button type="button" className="primary" onClick={() => void newSession()}>
                Start a session
              </button>
              <button
                type="button"
                title="A coordinator that splits the work among workers it creates"
                onClick={() => void newSession({ coordinator: true })}
              >
                Start a team session
              </button>
            </div>
            <p className="muted">Ctrl+T (Alt+T in a browser) starts one too.</p>
          </div>
        ) : (
          <div className={layout === 'grid' ? 'panels grid' : 'panels'} data-tiles={shown.length}>
            {shown.map((id) => (
              <SessionView key={id} sessionId={id} />
            ))}
          </div>
        )}
        <StatusBar />
      </main>
    </div>
  );
}
