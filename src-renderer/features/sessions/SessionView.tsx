import { useWorkspace } from '../../stores/workspace-store';
import { Transcript } from '../transcript/Transcript';
import { Composer } from './Composer';
import { panelId, tabId } from './TabStrip';
import { openSession } from '../../ipc/actions';

/** One session: its transcript and its composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useWorkspace((s) => s.sessions[sessionId]?.title ?? 'Session');
  const layout = useWorkspace((s) => s.layout);
  const active = useWorkspace((s) => s.tabs.active === sessionId);
  return (
    <section
      role="tabpanel"
      id={panelId(sessionId)}
      aria-labelledby={tabId(sessionId)}
      className={`session-view${active ? ' active' : ''}`}
      onFocus={() => {
        if (layout === 'grid' && !active) void openSession(sessionId);
      }}
    >
      {layout === 'grid' ? <h2 className="panel-title">{title}</h2> : null}
      <Transcript sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  );
}
