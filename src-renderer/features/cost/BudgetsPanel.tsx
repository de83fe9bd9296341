import { useEffect, useState } from 'react';
import type { BudgetStatus } from '@shared/domain/cost-report';
import { costApi, problem } from './cost-api';
import { formatMicros } from '@shared/domain/money';

type Field = 'sessionUsd' | 'projectDailyUsd' | 'dailyUsd';
const FIELDS: { key: Field; label: string; hint: string }[] = [
  { key: 'sessionUsd', label: 'Per session', hint: 'One session, its sub-agents and teammates included' },
  {
    key: 'projectDailyUsd',
    label: 'Per project per day',
    hint: 'All sessions of one project, each local day',
  },
  { key: 'dailyUsd', label: 'Everything per day', hint: 'All of Carapace, each local day' },
];

/** "12.5" → 12.5; "" → null (no limit); anything else → a reason. */
export function parseLimit(text: string): number | null | { error: string } {
  const t = text.trim().replace(/^\$/, '');
  if (t === '') return null;
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0)
    return { error: 'A limit is a dollar amount above 0, or empty for none.' };
  if (n > 1_000_000) return { error: 'A limit can be at most $1,000,000.' };
  return n;
}

/**
 * The three spending limits (user settings `budgets`) with where today stands. At 80% a session
 * warns; at 100% it pauses before its next model call and asks in the Inbox.
 */
export function BudgetsPanel({ projectId }: { projectId: string | undefined }) {
  const [status, setStatus] = useState<BudgetStatus | null>(null);
  const [draft, setDraft] = useState<Record<Field, string>>({
    sessionUsd: '',
    projectDailyUsd: '',
    dailyUsd: '',
  });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const show = (s: BudgetStatus) => {
    setStatus(s);
    setDraft({
      sessionUsd: s.budgets.sessionUsd?.toString() ?? '',
      projectDailyUsd: s.budgets.projectDailyUsd?.toString() ?? '',
      dailyUsd: s.budgets.dailyUsd?.toString() ?? '',
    });
  };
  useEffect(() => {
    costApi.budgets(projectId).then(show, (e: unknown) => setError(`Budgets: ${problem(e)}`));
  }, [projectId]);

  const save = async () => {
    const parsed = Object.fromEntries(FIELDS.map((f) => [f.key, parseLimit(draft[f.key])])) as Record<
      Field,
      ReturnType<typeof parseLimit>
    >;
    const bad = Object.values(parsed).find((v) => v !== null && typeof v === 'object');
    if (bad && typeof bad === 'object') {
      setError(bad.error);
      return;
    }
    setSaving(true);
    try {
      show(await costApi.setBudgets(projectId, parsed as Record<Field, number | null>));
      setError(null);
    } catch (e) {
      setError(`Not saved: ${problem(e)}`);
    } finally {
      setSaving(false);
    }
  };

  const today = (key: Field): string | null => {
    if (!status) return null;
    const spent =
      key === 'dailyUsd'
        ? status.allTodayMicros
        : key === 'projectDailyUsd'
          ? status.projectTodayMicros
          : null;
    if (spent === null) return null;
    const limit = status.budgets[key];
    const pct = limit ? ` (${Math.round((spent / 1_000_000 / limit) * 100)}%)` : '';
    return `today ${formatMicros(spent)}${pct}`;
  };

  return (
    <form
      className="cost-budgets"
      aria-label="Budgets"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="muted cost-budgets-note">
        At 80% of a limit a session warns; at 100% it pauses before its next model call and asks in the Inbox.
        Empty means no limit.
      </p>
      {FIELDS.map((f) => (
        <label key={f.key} title={f.hint}>
          <span>{f.label}</span>
          <span className="cost-money-input">
            $
            <input
              inputMode="decimal"
              aria-label={`${f.label} limit in US dollars`}
              placeholder="no limit"
              value={draft[f.key]}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
            />
          </span>
          <span className="muted cost-today">{today(f.key) ?? ''}</span>
        </label>
      ))}
      <div className="cost-budgets-actions">
        <button type="submit" disabled={saving || status === null}>
          {saving ? 'Saving…' : 'Save limits'}
        </button>
        {error ? (
          <span role="alert" className="error-text">
            {error}
          </span>
        ) : null}
      </div>
    </form>
  );
}
