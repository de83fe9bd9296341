import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CostQuery, CostReport, SessionCostRow, TurnCost } from '@shared/domain/cost-report';
import { useStore } from '../../stores/store';
import type { CostRange, CostView } from '../../stores/cost-slice';
import { BudgetsPanel } from './BudgetsPanel';
import { CostDialog } from './CostDialog';
import type { ChartMetric } from './chart-data';
import { costApi, problem } from './cost-api';
import { ExportButtons } from './ExportButtons';
import { allTokens, estimateLabel, exactSumCost, formatSumCost, formatTokens } from './format';
import { ModelsTable } from './ModelsTable';
import { openCostSession } from './open-session';
import { addDays, localDay, rangeDays } from './range';
import { SessionsTable } from './SessionsTable';
import { TurnsTable } from './TurnsTable';
import './cost.css';

// uPlot is only needed once there is something to draw.
const DayChart = lazy(() => import('./DayChart'));

const RANGES: { label: string; range: CostRange }[] = [
  { label: 'Today', range: { kind: 'today' } },
  { label: '7 days', range: { kind: 'days', days: 7 } },
  { label: '30 days', range: { kind: 'days', days: 30 } },
];

const queryKey = (q: CostQuery) =>
  [q.scope.kind === 'project' ? q.scope.projectId : '*', q.from, q.to, [...q.sources].sort().join('+')].join(
    ' ',
  );

const sameRange = (a: CostRange, b: CostRange) =>
  a.kind === b.kind && (a.kind !== 'days' || (b.kind === 'days' && a.days === b.days));

/** The cost dashboard (the store says whether it is open; its view choices live there too). */
export default function CostDashboard() {
  const project = useStore((s) => s.project);
  const view = useStore((s) => s.costView);
  const setView = (v: Partial<CostView>) => useStore.getState().setCostView(v);
  const [report, setReport] = useState<CostReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [metric, setMetric] = useState<ChartMetric>('cost');

  const scope = view.scope === 'project' && project ? 'project' : 'all';
  const days = rangeDays(view.range, new Date());
  const query = useMemo<CostQuery | null>(
    () =>
      'error' in days
        ? null
        : {
            scope:
              scope === 'project' && project ? { kind: 'project', projectId: project.id } : { kind: 'all' },
            from: days.from,
            to: days.to,
            sources: view.claudeCode ? ['carapace', 'claude-code'] : ['carapace'],
          },
    // The days are strings: the query changes only when one of them does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [scope, project?.id, 'error' in days ? days.error : `${days.from}/${days.to}`, view.claudeCode],
  );

  const asked = useRef(0);
  // Only the latest question's answer is shown (a slow one for an older range is dropped).
  const load = useCallback(() => {
    if (!query) return Promise.resolve();
    const n = ++asked.current;
    return costApi.report(query).then(
      (r) => {
        if (n !== asked.current) return;
        setReport(r);
        setError(null);
      },
      (e: unknown) => {
        if (n === asked.current) setError(problem(e));
      },
    );
  }, [query]);

  useEffect(() => {
    void load();
  }, [load]);

  // New usage: refresh (the main process sends this at most about once a second).
  useEffect(
    () =>
      costApi.onUpdated((e) => {
        if (query?.scope.kind === 'all' || e.projectId === null || e.projectId === project?.id) void load();
      }),
    [load, query, project?.id],
  );

  const close = () => useStore.getState().setCostOpen(false);
  const open = (row: Pick<SessionCostRow | TurnCost, 'sessionId'> & { projectPath?: string }) => {
    const path = row.projectPath ?? report?.sessions.find((s) => s.sessionId === row.sessionId)?.projectPath;
    if (path) void openCostSession(row.sessionId, path);
  };
  const custom = view.range.kind === 'custom' ? view.range : null;
  const today = localDay(new Date());
  const scopeName = scope === 'project' && project ? project.name : 'all projects';

  return (
    <CostDialog
      label="Cost"
      className="cost-dashboard"
      title="Cost"
      subtitle={scopeName}
      closeLabel="Close cost dashboard"
      onClose={close}
      controls={
        <>
          <div className="cost-segmented" role="group" aria-label="Projects">
            <button
              type="button"
              aria-pressed={scope === 'project'}
              disabled={!project}
              onClick={() => setView({ scope: 'project' })}
            >
              This project
            </button>
            <button type="button" aria-pressed={scope === 'all'} onClick={() => setView({ scope: 'all' })}>
              All projects
            </button>
          </div>
          <div className="cost-segmented" role="group" aria-label="Date range">
            {RANGES.map((r) => (
              <button
                key={r.label}
                type="button"
                aria-pressed={sameRange(view.range, r.range)}
                onClick={() => setView({ range: r.range })}
              >
                {r.label}
              </button>
            ))}
            <button
              type="button"
              aria-pressed={custom !== null}
              onClick={() =>
                custom === null &&
                setView({
                  range: {
                    kind: 'custom',
                    from: 'error' in days ? addDays(today, -6) : days.from,
                    to: 'error' in days ? today : days.to,
                  },
                })
              }
            >
              Custom
            </button>
          </div>
          {custom ? (
            <span className="cost-custom">
              <input
                type="date"
                aria-label="From"
                value={custom.from}
                max={today}
                onChange={(e) => setView({ range: { ...custom, from: e.target.value } })}
              />
              –
              <input
                type="date"
                aria-label="To"
                value={custom.to}
                onChange={(e) => setView({ range: { ...custom, to: e.target.value } })}
              />
            </span>
          ) : null}
          {report?.claudeCode.available ? (
            <label
              className="cost-toggle"
              title={
                report.claudeCode.enabled
                  ? "Include Claude Code's own sessions (~/.claude/projects)"
                  : 'Reading Claude Code sessions is turned off in Settings'
              }
            >
              <input
                type="checkbox"
                checked={view.claudeCode && report.claudeCode.enabled}
                disabled={!report.claudeCode.enabled}
                onChange={(e) => setView({ claudeCode: e.target.checked })}
              />
              Claude Code
            </label>
          ) : null}
        </>
      }
    >
      {'error' in days ? (
        <p role="alert" className="error-text">
          {days.error}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="error-text">
          The cost report could not be made: {error}
        </p>
      ) : null}
      {report === null ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <Report
          report={report}
          query={query}
          // The figures on screen are of another range or scope until the new report arrives.
          loading={queryKey(report.query) !== (query ? queryKey(query) : '')}
          metric={metric}
          setMetric={setMetric}
          showProject={scope === 'all'}
          projectId={project?.id}
          onOpen={open}
        />
      )}
    </CostDialog>
  );
}

function Report({
  report,
  query,
  loading,
  metric,
  setMetric,
  showProject,
  projectId,
  onOpen,
}: {
  report: CostReport;
  query: CostQuery | null;
  loading: boolean;
  metric: ChartMetric;
  setMetric: (m: ChartMetric) => void;
  showProject: boolean;
  projectId: string | undefined;
  onOpen: (row: Pick<SessionCostRow | TurnCost, 'sessionId'> & { projectPath?: string }) => void;
}) {
  const unpricedModels = report.models.filter((m) => !m.priced).map((m) => m.model);
  return (
    <>
      <div className="cost-summary" aria-busy={loading}>
        <div className="cost-total">
          <span className="cost-total-figure" data-testid="cost-total" title={exactSumCost(report.total)}>
            {formatSumCost(report.total)}
          </span>
          <span className="muted">
            {formatTokens(allTokens(report.total.tokens))} tokens · {formatTokens(report.total.records)}{' '}
            responses ·{' '}
            {report.query.from === report.query.to
              ? report.query.from
              : `${report.query.from} to ${report.query.to}`}
          </span>
        </div>
        <p className="muted cost-estimate">
          {estimateLabel(report.priceTable)}.{' '}
          {unpricedModels.length > 0 ? (
            <span className="cost-unpriced-note">
              Not in the price table (tokens counted, cost unknown): {unpricedModels.join(', ')}.
            </span>
          ) : null}
        </p>
        {report.problems.length > 0 ? (
          <details className="cost-problems">
            <summary>
              {report.problems.length} {report.problems.length === 1 ? 'note' : 'notes'} on the data
            </summary>
            <ul>
              {report.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
      <div className="cost-top">
        <section className="cost-section" aria-labelledby="cost-days-h">
          <div className="cost-section-head">
            <h3 id="cost-days-h">Per day</h3>
            <div className="cost-segmented" role="group" aria-label="Chart shows">
              <button type="button" aria-pressed={metric === 'cost'} onClick={() => setMetric('cost')}>
                Spend
              </button>
              <button type="button" aria-pressed={metric === 'tokens'} onClick={() => setMetric('tokens')}>
                Tokens
              </button>
            </div>
            <span className="spacer" />
            <ExportButtons query={query} table="days" what="days" />
          </div>
          <Suspense fallback={<div className="cost-chart-placeholder muted">Loading chart…</div>}>
            <DayChart days={report.days} metric={metric} />
          </Suspense>
        </section>
        <section className="cost-section cost-budgets-section" aria-labelledby="cost-budgets-h">
          <div className="cost-section-head">
            <h3 id="cost-budgets-h">Budgets</h3>
          </div>
          <BudgetsPanel projectId={projectId} />
        </section>
      </div>
      <section className="cost-section" aria-labelledby="cost-models-h">
        <div className="cost-section-head">
          <h3 id="cost-models-h">Per model</h3>
          <span className="spacer" />
          <ExportButtons query={query} table="models" what="models" />
        </div>
        <ModelsTable rows={report.models} />
      </section>
      <section className="cost-section" aria-labelledby="cost-sessions-h">
        <div className="cost-section-head">
          <h3 id="cost-sessions-h">Per session</h3>
          <span className="muted">Click a title to open the session, a cost for its breakdown.</span>
          <span className="spacer" />
          <ExportButtons query={query} table="sessions" what="sessions" />
        </div>
        <SessionsTable
          rows={report.sessions}
          showProject={showProject}
          onOpen={onOpen}
          onDetails={(r) => useStore.getState().setCostSessionId(r.sessionId)}
        />
      </section>
      <section className="cost-section" aria-labelledby="cost-turns-h">
        <div className="cost-section-head">
          <h3 id="cost-turns-h">Most expensive turns</h3>
          <span className="spacer" />
          <ExportButtons query={query} table="turns" what="turns" />
        </div>
        <TurnsTable rows={report.topTurns} label="Most expensive turns" showSession onOpen={onOpen} />
      </section>
    </>
  );
}
