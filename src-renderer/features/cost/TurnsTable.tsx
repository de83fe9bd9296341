import type { TurnCost } from '@shared/domain/cost-report';
import { allTokens, exactSumCost, formatSumCost, formatTokens, shortModel } from './format';

/** Turns (the person's message and every response it led to), most expensive first or in order. */
export function TurnsTable({
  rows,
  label,
  showSession,
  onOpen,
}: {
  rows: TurnCost[];
  label: string;
  showSession: boolean;
  onOpen?: (row: TurnCost) => void;
}) {
  if (rows.length === 0) return <p className="muted">No turns in this range.</p>;
  return (
    <div className="cost-table-wrap">
      <table className="cost-table" aria-label={label}>
        <thead>
          <tr>
            {showSession ? <th scope="col">Session</th> : null}
            <th scope="col" className="num">
              Turn
            </th>
            <th scope="col">When</th>
            <th scope="col">Models</th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={`${t.source}:${t.sessionId}:${t.turn}`}>
              {showSession ? (
                <td className="cost-title-cell">
                  {onOpen && t.source === 'carapace' ? (
                    <button
                      type="button"
                      className="link"
                      title="Open this session"
                      onClick={() => onOpen(t)}
                    >
                      {t.title || 'Untitled session'}
                    </button>
                  ) : (
                    t.title || t.sessionId
                  )}
                </td>
              ) : null}
              <td className="num">{t.turn}</td>
              <td>{new Date(t.at).toLocaleString()}</td>
              <td>{t.models.map(shortModel).join(', ')}</td>
              <td className="num">{formatTokens(allTokens(t.tokens))}</td>
              <td className="num" title={exactSumCost(t)}>
                {formatSumCost(t)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
