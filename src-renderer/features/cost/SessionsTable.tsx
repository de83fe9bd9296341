import { useMemo, useState } from 'react';
import type { SessionCostRow } from '@shared/domain/cost-report';
import { exactMicros, formatMicros } from '@shared/domain/money';
import {
  cacheWrites,
  exactSumCost,
  formatDuration,
  formatRatio,
  formatSumCost,
  formatTokens,
  shortModel,
} from './format';
import { nextSort, SESSION_COLUMNS, sortSessions, type SortState } from './sort';

/**
 * Per session: tokens by kind, cache hits, cost, turns, duration and what sub-agents spent. Headers
 * are buttons (click or Enter/Space sorts; again flips); a Carapace session's title opens it.
 */
export function SessionsTable({
  rows,
  showProject,
  onOpen,
  onDetails,
}: {
  rows: SessionCostRow[];
  showProject: boolean;
  onOpen: (row: SessionCostRow) => void;
  onDetails: (row: SessionCostRow) => void;
}) {
  const [sort, setSort] = useState<SortState>({ key: 'cost', dir: 'desc' });
  const sorted = useMemo(() => sortSessions(rows, sort), [rows, sort]);
  if (rows.length === 0) return <p className="muted">No sessions in this range.</p>;
  return (
    <div className="cost-table-wrap">
      <table className="cost-table" aria-label="Sessions">
        <thead>
          <tr>
            {SESSION_COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={c.numeric ? 'num' : undefined}
                aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                <button type="button" className="cost-sort" onClick={() => setSort(nextSort(sort, c.key))}>
                  {c.label}
                  <span aria-hidden="true">
                    {sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={`${r.source}:${r.sessionId}`} data-session-id={r.sessionId}>
              <td className="cost-title-cell">
                {r.source === 'carapace' ? (
                  <button type="button" className="link" title="Open this session" onClick={() => onOpen(r)}>
                    {r.title || 'Untitled session'}
                  </button>
                ) : (
                  <span title="A Claude Code session">{r.title || r.sessionId}</span>
                )}
                {r.source === 'claude-code' ? <span className="cost-badge">Claude Code</span> : null}
                {showProject ? <div className="muted cost-project">{baseName(r.projectPath)}</div> : null}
              </td>
              <td>{r.models.map(shortModel).join(', ')}</td>
              <td className="num">{formatTokens(r.tokens.input)}</td>
              <td className="num">{formatTokens(r.tokens.output)}</td>
              <td className="num">{formatTokens(cacheWrites(r.tokens))}</td>
              <td className="num">{formatTokens(r.tokens.cacheRead)}</td>
              <td className="num">{formatRatio(r.cacheHitRatio)}</td>
              <td className="num" title={exactSumCost(r)}>
                {r.source === 'carapace' ? (
                  <button
                    type="button"
                    className="link"
                    title={`${exactSumCost(r)}: this session's cost by model, turn and member`}
                    onClick={() => onDetails(r)}
                  >
                    {formatSumCost(r)}
                  </button>
                ) : (
                  formatSumCost(r)
                )}
              </td>
              <td
                className="num"
                title={r.subAgentCostMicros > 0 ? exactMicros(r.subAgentCostMicros) : undefined}
              >
                {r.subAgentCostMicros > 0 ? formatMicros(r.subAgentCostMicros) : '—'}
              </td>
              <td className="num">{r.turns}</td>
              <td className="num">{formatDuration(r.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}
