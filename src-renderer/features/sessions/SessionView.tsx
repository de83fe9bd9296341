import { useState } from 'react';
import { isWorking } from '@shared/domain/session';
import { useStore } from '../../stores/store';
import { PermissionLog } from '../permissions/PermissionLog';
import { PermissionPrompt } from '../permissions/PermissionPrompt';
import { TasksPanel } from '../tasks/TasksPanel';
import { TeamView } from '../team/TeamView';
import { TerminalPanel } from '../terminal/TerminalPanel';
import { Transcript } from '../transcript/Transcript';
import { BypassBanner } from './BypassBanner';
import { Composer } from './Composer';
import { panelId, tabId } from './TabStrip';
import { openSession, setBackground } from '../../ipc/actions';

/** One session: its transcript (or its team view) and its composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useStore((s) => s.sessions[sessionId]?.title ?? 'Session');
  const layout = useStore((s) => s.layout);
  const active = useStore((s) => s.tabs.active === sessionId);
  const [showLog, setShowLog] = useState(false);
  const terminal = useStore((s) => s.terminalOpen[sessionId] === true);
  const team = useStore((s) => s.teamViewOpen[sessionId] === true);
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));
  return (
    <section
      role="tabpanel"
      id={panelId(sessionId)}
      aria-labelledby={tabId(sessionId)}
      className={`session-view${active ? ' active' : ''}`}
      onFocus={() => {
        if (layout === 'grid' && !active) void openSession(sessionId, { focus: false });
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
        {working ? (
          <button
            type="button"
            className="link"
            title="Close the tab and let the session work on; you are told when it ends or needs you"
            onClick={() => void setBackground(sessionId, true)}
          >
            Send to background
          </button>
        ) : null}
      </div>
      {showLog ? <PermissionLog sessionId={sessionId} /> : null}
      {team ? (
        <TeamView sessionId={sessionId} />
      ) : (
        <>
          <Transcript sessionId={sessionId} />
          <TasksPanel sessionId={sessionId} />
        </>
      )}
      {terminal ? <TerminalPanel sessionId={sessionId} /> : null}
      <PermissionPrompt sessionId={sessionId} compact={team} />
      <BypassBanner sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  );
}
