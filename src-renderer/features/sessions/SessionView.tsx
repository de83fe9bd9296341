import { lazy, Suspense, useState } from 'react';
import { isWorking } from '@shared/domain/session';
import { useStore } from '../../stores/store';
import { FileDiff, ShieldCheck, SquareTerminal } from 'lucide-react';
import { useReview } from '../changes/review-store';
import { useChangesShortcut } from '../changes/useChangesShortcut';
import { PermissionLog } from '../permissions/PermissionLog';
import { PermissionPrompt } from '../permissions/PermissionPrompt';
import { TasksPanel } from '../tasks/TasksPanel';
import { Transcript } from '../transcript/Transcript';
import { BypassBanner } from './BypassBanner';
import { SessionPutAway } from './SessionPutAway';
import { Composer } from './Composer';
import { panelId, tabId } from './TabStrip';
import { openSession, setBackground } from '../../ipc/actions';

// Loaded when first shown (the terminal brings xterm): kept out of the window's first chunk.
const TeamView = lazy(() => import('../team/TeamView').then((m) => ({ default: m.TeamView })));
const ChangesView = lazy(() => import('../changes/ChangesView').then((m) => ({ default: m.ChangesView })));
const TerminalPanel = lazy(() =>
  import('../terminal/TerminalPanel').then((m) => ({ default: m.TerminalPanel })),
);

/** One session: its transcript (or its team view) and its composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useStore((s) => s.sessions[sessionId]?.title ?? 'Session');
  const layout = useStore((s) => s.layout);
  const active = useStore((s) => s.tabs.active === sessionId);
  const [showLog, setShowLog] = useState(false);
  const terminal = useStore((s) => s.terminalOpen[sessionId] === true);
  const team = useStore((s) => s.teamViewOpen[sessionId] === true);
  const working = useStore((s) => isWorking(s.sessions[sessionId]?.activity));
  const changes = useReview((s) => s.open[sessionId] === true);
  useChangesShortcut(sessionId, active);
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
          className="small icon-button"
          aria-pressed={terminal}
          aria-label="Terminal"
          title="This session's terminal (Ctrl+`)"
          onClick={() => useStore.getState().toggleTerminal(sessionId)}
        >
          <SquareTerminal size={14} aria-hidden="true" />
          Terminal
        </button>
        <button
          type="button"
          className="small icon-button"
          aria-pressed={changes}
          aria-label="Changes"
          title="What this session changed: diffs, review comments, commit (Ctrl+Shift+G)"
          onClick={() => useReview.getState().toggle(sessionId)}
        >
          <FileDiff size={14} aria-hidden="true" />
          Changes
        </button>
        <button
          type="button"
          className="small icon-button"
          aria-pressed={showLog}
          aria-label="Permission log"
          title="What this session asked to do, and who decided"
          onClick={() => setShowLog(!showLog)}
        >
          <ShieldCheck size={14} aria-hidden="true" />
          Permission log
        </button>
        <SessionPutAway sessionId={sessionId} />
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
      {changes ? (
        <Suspense fallback={<p className="muted">Loading the changes…</p>}>
          <ChangesView sessionId={sessionId} />
        </Suspense>
      ) : team ? (
        <Suspense fallback={<p className="muted">Loading the team…</p>}>
          <TeamView sessionId={sessionId} />
        </Suspense>
      ) : (
        <>
          <Transcript sessionId={sessionId} />
          <TasksPanel sessionId={sessionId} />
        </>
      )}
      {terminal ? (
        <Suspense fallback={null}>
          <TerminalPanel sessionId={sessionId} />
        </Suspense>
      ) : null}
      {/* A side-by-side tile has no room for the full form: one line and the answers, the rest a click away. */}
      <PermissionPrompt sessionId={sessionId} compact={team || layout === 'grid'} />
      <BypassBanner sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  );
}
