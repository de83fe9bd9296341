import type { PermissionRequestView } from '@shared/domain/permissions';
import './asked-by.css';

/**
 * Which sub-agent or worker asks, when it is not the session's main agent: with several workers at
 * once, "Bash: rm -rf dist" means little until one knows who wants it.
 */
export function AskedBy({ agent }: { agent: NonNullable<PermissionRequestView['agent']> }) {
  return (
    <span className="asked-by" data-agent={agent.name}>
      <strong>{agent.name}</strong> <span className="muted">({agent.agentType})</span>
    </span>
  );
}
