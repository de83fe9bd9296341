import { useState } from 'react';
import { useStore } from '../../stores/store';
import { PermissionLog } from '../permissions/PermissionLog';
import { PermissionPrompt } from '../permissions/PermissionPrompt';
import { TasksPanel } from '../tasks/TasksPanel';
import { TerminalPanel } from '../terminal/TerminalPanel';
import { Transcript } from '../transcript/Transcript';
import { BypassBanner } from './BypassBanner';
import { Composer } from './Composer';
import { panelId, tabId } from './TabStrip';
import { openSession } from '../../ipc/actions';

/** One session: its transcript and its composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useStore((s) => s.sessions[sessionId]?.title ?? 'Session');
  const layout = useStore((s) => s.layout);
  const active = useStore((s) => s.tabs.active === sessionId);
  const [showLog, setShowLog] = useState(false);
  const terminal = useStore((s) => s.terminalOpen[sessionId] === true);
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
      <div className="panel-bar">
        {layout === 'grid' ? <h2 className="panel-title">{title}</h2> : <span className="spacer" />}
        <button
          type="button"
          className="link"
          aria-pressed={terminal}
          title="Ctrl+`"
          onClick={() => useStore.getState().toggleTerminal(sessionId)}
        >
          Terminal
        </button>
        <button type="button" className="link" aria-pressed={showLog} onClick={() => setShowLog(!showLog)}>
          Permission log
        </button>
      </div>
      {showLog ? <PermissionLog sessionId={sessionId} /> : null}
      <Transcript sessionId={sessionId} />
      <TasksPanel sessionId={sessionId} />
      {terminal ? <TerminalPanel sessionId={sessionId} /> : null}
      <PermissionPrompt sessionId={sessionId} />
      <BypassBanner sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  );
}
