import type { PermissionMode } from '@shared/domain/permissions';
import { isWorking, type SessionActivity } from '@shared/domain/session';
import { totalTokens } from '@shared/domain/usage';
import { setPermissionMode, setSessionModel } from '../../ipc/actions';
import { useHasAgents, useSessionAgents } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { CostFigure } from '../cost/CostFigure';
import { McpStatus } from '../settings/McpStatus';
import { ContextMeter } from './ContextMeter';
import { usePermissionModes } from './usePermissionModes';

const MODES: { id: PermissionMode; label: string }[] = [
  { id: 'default', label: 'Ask (read-only runs)' },
  { id: 'acceptEdits', label: 'Accept edits' },
  { id: 'plan', label: 'Plan (read-only)' },
  { id: 'dontAsk', label: "Don't ask (refuse what would ask)" },
  { id: 'bypassPermissions', label: 'Bypass permissions' },
];

const ACTIVITY: Record<SessionActivity, string> = {
  idle: 'idle',
  thinking: 'thinking',
  streaming: 'streaming',
  tools: 'running tools',
  error: 'error',
};

/** Opens the active session's team view: offered once it has sub-agents or a team. */
function TeamButton({ sessionId }: { sessionId: string }) {
  const has = useHasAgents(sessionId);
  const count = Object.keys(useSessionAgents(sessionId)).length;
  const open = useStore((s) => s.teamViewOpen[sessionId] === true);
  if (!has && !open) return null;
  return (
    <button
      type="button"
      className="small"
      aria-pressed={open}
      title="Team view: every agent of this session, what it does and costs (Ctrl+Shift+E)"
      onClick={() => useStore.getState().setTeamViewOpen(sessionId, !open)}
    >
      Team view{count > 0 ? ` (${count})` : ''}
    </button>
  );
}

/** Model, permission mode, state, tokens and cost of the active session. */
export function StatusBar() {
  const session = useStore((s) => (s.tabs.active ? s.sessions[s.tabs.active] : undefined));
  const models = useStore((s) => s.models);
  const modes = usePermissionModes(useStore((s) => s.project?.id ?? null));
  // A policy can disable bypass; the option stays listed (disabled, with the reason) so it is clear why.
  const bypassOff = modes !== null && !modes.bypassAvailable;
  if (!session) return <footer className="statusbar" aria-label="Status bar" />;
  const working = isWorking(session.activity);
  const known = models.some((m) => m.id === session.model);
  return (
    <footer className="statusbar" aria-label="Status bar">
      <select
        aria-label="Model"
        value={session.model}
        disabled={working}
        onChange={(e) => void setSessionModel(session.id, e.target.value)}
      >
        {known ? null : <option value={session.model}>{session.model}</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
          </option>
        ))}
      </select>
      <select
        aria-label="Permission mode"
        value={session.permissionMode}
        title="What the agent may do without asking"
        onChange={(e) => void setPermissionMode(session.id, e.target.value as PermissionMode)}
      >
        {MODES.map((m) =>
          m.id === 'bypassPermissions' && bypassOff ? (
            <option key={m.id} value={m.id} disabled title={modes.bypassUnavailableReason ?? undefined}>
              {m.label} (disabled)
            </option>
          ) : (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ),
        )}
      </select>
      <span className={`state state-${session.activity}`} data-testid="session-state">
        {ACTIVITY[session.activity]}
      </span>
      <span data-testid="session-tokens">{totalTokens(session.usage).toLocaleString('en-US')} tokens</span>
      {session.context ? <ContextMeter meter={session.context} /> : null}
      <CostFigure session={session} />
      <TeamButton sessionId={session.id} />
      <McpStatus projectId={session.projectId} />
      {session.lastError ? (
        <span className="error-text" title={session.lastError}>
          last error: {session.lastError.split(':')[0]}
        </span>
      ) : null}
    </footer>
  );
}
