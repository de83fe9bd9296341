import { useEffect, useState } from 'react';
import type { SessionCostDetail } from '@shared/domain/cost-report';
import { useStore } from '../../stores/store';
import { costApi, problem } from './cost-api';
import { CostDialog } from './CostDialog';
import { allTokens, estimateLabel, exactSumCost, formatSumCost, formatTokens } from './format';
import { ModelsTable } from './ModelsTable';
import { TurnsTable } from './TurnsTable';
import './cost.css';

/** One session's cost, by model, by turn and by member (main agent, sub-agents, teammates). */
export default function SessionCostView() {
  const sessionId = useStore((s) => s.costSessionId);
  const title = useStore((s) => (s.costSessionId ? s.sessions[s.costSessionId]?.title : undefined));
  const [detail, setDetail] = useState<SessionCostDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    const load = () =>
      costApi.session(sessionId).then(
        (d) => live && (setDetail(d), setError(null)),
        (e: unknown) => live && setError(problem(e)),
      );
    void load();
    const off = costApi.onUpdated(() => void load());
    return () => {
      live = false;
      off();
    };
  }, [sessionId]);

  if (!sessionId) return null;
  const close = () => useStore.getState().setCostSessionId(null);
  return (
    <CostDialog
      label="Session cost"
      className="cost-dashboard cost-session-view"
      title="Session cost"
      subtitle={title ?? sessionId}
      closeLabel="Close session cost"
      onClose={close}
    >
      {error ? (
        <p role="alert" className="error-text">
          The session's cost could not be read: {error}
        </p>
      ) : null}
      {detail === null ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <>
          <div className="cost-summary">
            <div className="cost-total">
              <span
                className="cost-total-figure"
                data-testid="session-cost-total"
                title={exactSumCost(detail.total)}
              >
                {formatSumCost(detail.total)}
              </span>
              <span className="muted">
                {formatTokens(allTokens(detail.total.tokens))} tokens · {formatTokens(detail.total.records)}{' '}
                responses
              </span>
            </div>
            <p className="muted cost-estimate">{estimateLabel(detail.priceTable)}.</p>
          </div>
          <section className="cost-section" aria-labelledby="cost-member-h">
            <div className="cost-section-head">
              <h3 id="cost-member-h">By member</h3>
            </div>
            <div className="cost-table-wrap">
              <table className="cost-table" aria-label="By member">
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    <th scope="col">Type</th>
                    <th scope="col" className="num">
                      Tokens
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
                  {detail.byMember.map((m) => (
                    <tr key={m.agentId ?? 'main'}>
                      <td>{m.agentId === null ? 'Main agent' : m.name}</td>
                      <td>{m.agentId === null ? '—' : m.agentType}</td>
                      <td className="num">{formatTokens(allTokens(m.tokens))}</td>
                      <td className="num">{formatTokens(m.records)}</td>
                      <td className="num" title={exactSumCost(m)}>
                        {formatSumCost(m)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section className="cost-section" aria-labelledby="cost-smodel-h">
            <div className="cost-section-head">
              <h3 id="cost-smodel-h">By model</h3>
            </div>
            <ModelsTable rows={detail.byModel} label="By model" />
          </section>
          <section className="cost-section" aria-labelledby="cost-sturn-h">
            <div className="cost-section-head">
              <h3 id="cost-sturn-h">By turn</h3>
            </div>
            <TurnsTable rows={detail.byTurn} label="By turn" showSession={false} />
          </section>
        </>
      )}
    </CostDialog>
  );
}
