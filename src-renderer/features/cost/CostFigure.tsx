import { exactSessionCost, formatSessionCost } from '@shared/domain/cost';
import type { SessionSummary } from '@shared/domain/session';
import { useStore } from '../../stores/store';
import './cost-figure.css';

/** The session's live cost in its status bar; a click opens its cost view (by model, turn, member). */
export function CostFigure({ session }: { session: Pick<SessionSummary, 'id' | 'costUsd' | 'costKind'> }) {
  return (
    <button
      type="button"
      className="cost-figure"
      data-testid="session-cost"
      title={`${exactSessionCost(session.costUsd, session.costKind)}: this session's cost by model, turn and member`}
      onClick={() => useStore.getState().setCostSessionId(session.id)}
    >
      {formatSessionCost(session.costUsd, session.costKind)}
    </button>
  );
}
