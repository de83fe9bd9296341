import type { Day, UsageSource } from '@shared/domain/cost-report';
import { parseStrict, UsageError } from './strict-options';

/** `carapace usage [daily|monthly|session] [--since D] [--until D] [--json] [--project DIR] [--source S]` */
export type UsageView = 'daily' | 'monthly' | 'session';
export type SourceChoice = 'carapace' | 'claude-code' | 'all';

export interface UsageOptions {
  view: UsageView;
  /** Inclusive local days; `since` null: as far back as the ledger reaches (ten years). */
  since: Day | null;
  until: Day | null;
  json: boolean;
  /** A project folder as typed (resolved against the working folder when run). */
  project: string | null;
  source: SourceChoice;
}

const VIEWS: readonly UsageView[] = ['daily', 'monthly', 'session'];
const SOURCES: readonly SourceChoice[] = ['carapace', 'claude-code', 'all'];

/** `YYYY-MM-DD` or `YYYYMMDD` (ccusage's form), a real calendar day; returned as `YYYY-MM-DD`. */
export function parseDay(flag: string, text: string): Day {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  const bad = () => new UsageError(`${flag} must be a date as YYYY-MM-DD or YYYYMMDD, not "${text}".`);
  if (!m || (text.includes('-') && !/^\d{4}-\d{2}-\d{2}$/.test(text.trim()))) throw bad();
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) throw bad();
  return `${m[1]}-${m[2]}-${m[3]}`;
}

export function parseUsageArgs(argv: readonly string[]): UsageOptions {
  const { values, positionals } = parseStrict(
    argv,
    {
      since: { type: 'string' },
      until: { type: 'string' },
      json: { type: 'boolean' },
      project: { type: 'string' },
      source: { type: 'string' },
    },
    { command: 'usage', positionals: true },
  );
  if (positionals.length > 1)
    throw new UsageError(
      `usage takes one report (daily, monthly or session), not "${positionals.join(' ')}".`,
    );
  const view = positionals[0] ?? 'daily';
  if (!VIEWS.includes(view as UsageView))
    throw new UsageError(`Unknown report "${view}" for usage: use daily, monthly or session.`);
  const source = values.source ?? 'all';
  if (!SOURCES.includes(source as SourceChoice))
    throw new UsageError(`--source must be carapace, claude-code or all, not "${source}".`);
  const since = values.since === undefined ? null : parseDay('--since', values.since);
  const until = values.until === undefined ? null : parseDay('--until', values.until);
  if (since !== null && until !== null && since > until)
    throw new UsageError(`--since (${since}) is after --until (${until}).`);
  if (values.project !== undefined && values.project.trim() === '')
    throw new UsageError('--project needs a folder.');
  return {
    view: view as UsageView,
    since,
    until,
    json: values.json ?? false,
    project: values.project ?? null,
    source: source as SourceChoice,
  };
}

/** The sources a choice asks for; `all` includes Claude Code's only where it is on. */
export function sourcesOf(choice: SourceChoice, claudeCodeOn: boolean): UsageSource[] {
  if (choice === 'carapace') return ['carapace'];
  if (choice === 'claude-code') return ['claude-code'];
  return claudeCodeOn ? ['carapace', 'claude-code'] : ['carapace'];
}
