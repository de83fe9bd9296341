import type { ModelCost } from '@shared/domain/cost-report';
import { cacheWrites, exactSumCost, formatSumCost, formatTokens } from './format';

/** Per model: tokens by kind and cost; a model the price table does not know is flagged. */
export function ModelsTable({ rows, label = 'Models' }: { rows: ModelCost[]; label?: string }) {
  if (rows.length === 0) return <p className="muted">No usage in this range.</p>;
  return (
    <div className="cost-table-wrap">
      <table className="cost-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Input
            </th>
            <th scope="col" className="num">
              Output
            </th>
            <th scope="col" className="num">
              Cache write 5 min
            </th>
            <th scope="col" className="num">
              Cache write 1 h
            </th>
            <th scope="col" className="num">
              Cache read
            </th>
            <th scope="col" className="num">
              Web searches
            </th>
            <th scope="col" className="num">
              Responses
            </th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.model}>
              <td>
                {m.model}
                {m.priced ? null : (
                  <span
                    className="cost-badge cost-unpriced"
                    title="Not in the price table: its tokens count, its cost is unknown"
                  >
                    unpriced
                  </span>
                )}
              </td>
              <td className="num">{formatTokens(m.tokens.input)}</td>
              <td className="num">{formatTokens(m.tokens.output)}</td>
              <td className="num">{formatTokens(m.tokens.cacheWrite5m)}</td>
              <td className="num">{formatTokens(m.tokens.cacheWrite1h)}</td>
              <td className="num">{formatTokens(m.tokens.cacheRead)}</td>
              <td className="num">{formatTokens(m.tokens.webSearches)}</td>
              <td className="num">{formatTokens(m.records)}</td>
              <td
                className="num"
                title={
                  m.priced
                    ? `${exactSumCost(m)}${cacheWrites(m.tokens) > 0 ? ', cache writes included' : ''}`
                    : undefined
                }
              >
                {m.priced ? formatSumCost(m) : 'unpriced'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
