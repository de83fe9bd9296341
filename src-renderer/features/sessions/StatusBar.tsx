import { formatSessionCost } from '@shared/domain/cost';
import { totalTokens } from '@shared/domain/usage';
import { setSessionModel } from '../../ipc/actions';
import { useWorkspace } from '../../stores/workspace-store';

/** Model, state, tokens and cost of the active session. */
export function StatusBar() {
  const session = useWorkspace((s) => (s.tabs.active ? s.sessions[s.tabs.active] : undefined));
  const models = useWorkspace((s) => s.models);
  if (!session) return <footer className="statusbar" aria-label="Status bar" />;
  const working = session.activity === 'thinking' || session.activity === 'streaming';
  const known = models.some((m) => m.id === session.model);
  return (
    <footer className="statusbar" aria-label="Status bar">
      <label>
        <span className="sr-only">Model</span>
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
      </label>
      <span className={`state state-${session.activity}`} data-testid="session-state">
        {session.activity}
      </span>
      <span data-testid="session-tokens">{totalTokens(session.usage).toLocaleString('en-US')} tokens</span>
      <span data-testid="session-cost">{formatSessionCost(session.costUsd, session.costKind)}</span>
      {session.lastError ? (
        <span className="error-text" title={session.lastError}>
          last error: {session.lastError.split(':')[0]}
        </span>
      ) : null}
    </footer>
  );
}
