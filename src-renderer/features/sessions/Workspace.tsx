import { useStore } from '../../stores/store';
import { SessionView } from './SessionView';
import { SandboxBanner } from './SandboxBanner';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';
import { TabStrip } from './TabStrip';
import { newSession } from '../../ipc/actions';

/** Sidebar, tab strip, the session panel(s) and the status bar of one open project. */
export function Workspace() {
  const open = useStore((s) => s.tabs.open);
  const active = useStore((s) => s.tabs.active);
  const layout = useStore((s) => s.layout);
  // Tabs show one panel; "side by side" tiles every open session so many can be watched at once.
  const shown = layout === 'grid' ? open : active ? [active] : [];
  return (
    <div className="workspace">
      <Sidebar />
      <main className="main">
        <TabStrip />
        <SandboxBanner />
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
          <div className={layout === 'grid' ? `panels grid n${Math.min(shown.length, 12)}` : 'panels'}>
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
