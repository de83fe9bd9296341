import { homedir } from 'node:os';
import path from 'node:path';
import type { CostSum, Day, SessionCostRow, TokenCounts, UsageSource } from '@shared/domain/cost-report';
import { UserSettings } from '@shared/domain/settings';
import { claudeCodeDirs, claudeCodeEnabled } from '../harness/cost/claude-code';
import { usdOfMicros } from '../harness/cost/export';
import { localDay, UsageLedger } from '../harness/cost/ledger';
import { readJsonFile } from '../platform/json-file';
import { carapaceHome, dataPaths } from '../platform/paths';
import { UsageError } from './strict-options';
import { type SourceChoice, sourcesOf, type UsageOptions } from './usage-args';
import { jsonTerminalSafe, terminalSafe } from './terminal-text';
import { count, renderTable, type TableColumn } from './usage-table';

/**
 * `carapace usage`: the cost dashboard's figures in the terminal. The same ledger and the same
 * report as the dashboard (UsageLedger.report), so the two never disagree: a table to read, or JSON
 * (`--json`) with every figure in integer micro-dollars beside its USD value.
 */

export interface UsageIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The person's home folder (Claude Code's `~/.claude`); default os.homedir(). */
  home?: string;
  /** For tests: what "today" is. */
  now?: Date;
}

/** How far back a report without --since reaches: the ledger's own limit on a range. */
const DEFAULT_DAYS_BACK = 3650;
/** The longest range, in calendar years apart, as the dashboard's `cost.report` allows. */
const MAX_RANGE_YEARS = 10;

interface Row {
  label: string;
  sum: CostSum;
  models: string[];
  /** Session rows: the project folder's name (where Claude Code sessions and Carapace's differ). */
  project?: string;
}

export async function runUsage(o: UsageOptions, io: UsageIo): Promise<number> {
  const home = carapaceHome(io.env);
  const settings = readJsonFile(dataPaths(home).settingsFile, UserSettings);
  const dirs = claudeCodeDirs(io.env, io.home ?? homedir());
  const claudeOn = claudeCodeEnabled(settings.kind === 'ok' ? settings.value : {}, dirs);
  const sources = sourcesOf(o.source, claudeOn);
  const readClaude = sources.includes('claude-code') && dirs.length > 0;

  const today = localDay((io.now ?? new Date()).getTime());
  const to = o.until ?? today;
  // The report builds every day of its range: `--since 0100-01-01` would be millions of days (and
  // gigabytes). The dashboard's own limit (cost-service.ts) applies here too.
  if (o.since !== null && Number(to.slice(0, 4)) - Number(o.since.slice(0, 4)) > MAX_RANGE_YEARS)
    throw new UsageError(
      `The range ${o.since} – ${to} is longer than ${MAX_RANGE_YEARS} years; give a later --since${o.until === null ? '' : ' or an earlier --until'}.`,
    );

  const ledger = new UsageLedger({ carapaceHome: home, claudeCode: readClaude ? { dirs } : null });
  await ledger.refresh();

  const projectPaths = o.project === null ? null : [path.resolve(io.cwd, o.project)];
  const report = ledger.report({
    projectPaths,
    from: o.since ?? shiftDay(to, -DEFAULT_DAYS_BACK),
    to,
    sources,
  });
  // Without --since the range starts at the earliest day with usage, not ten years of empty days.
  const from = o.since ?? report.days.find((d) => d.total.records > 0)?.day ?? to;

  const notes: string[] = [];
  if (settings.kind === 'invalid')
    notes.push(`${dataPaths(home).settingsFile} could not be read: ${settings.problem}.`);
  if (o.source === 'claude-code' && dirs.length === 0)
    notes.push(
      'No Claude Code transcripts were found (~/.claude/projects, ~/.config/claude/projects or $CLAUDE_CONFIG_DIR).',
    );
  if (o.source === 'all' && dirs.length > 0 && !claudeOn)
    notes.push(
      "Claude Code's usage is left out (settings: usage.includeClaudeCode is false); --source claude-code shows it.",
    );
  if (report.problems.length > 0)
    notes.push(`${report.problems.length} transcript problem(s); the first: ${report.problems[0] ?? ''}`);

  const rows = rowsOf(o.view, report.days, report.sessions);
  const total: Row = { label: 'Total', sum: report.total, models: report.models.map((m) => m.model) };

  if (o.json) {
    const body = {
      view: o.view,
      from,
      to,
      sources,
      project: projectPaths?.[0] ?? null,
      priceTable: report.priceTable,
      note: 'Estimates from list prices. costMicros is integer micro-dollars; unpricedRecords are responses of models the price table does not know (their tokens are counted, their cost is not).',
      [o.view === 'session' ? 'sessions' : o.view]:
        o.view === 'session' ? report.sessions.map(sessionJson) : rows.map((r) => rowJson(o.view, r)),
      total: sumJson(report.total),
      problems: report.problems,
    };
    io.stdout.write(jsonTerminalSafe(JSON.stringify(body, null, 2)) + '\n');
  } else {
    io.stdout.write(
      `Usage ${o.since === null ? `until ${to}` : `${from} – ${to}`}${sourceLabel(o.source, sources)}${projectPaths ? `, ${terminalSafe(projectPaths[0] ?? '')}` : ''} (estimates, price table ${report.priceTable.version})\n\n`,
    );
    if (rows.length === 0) io.stdout.write('No usage in this range.\n');
    else io.stdout.write(table(o.view, rows, total));
    if (rows.some((r) => r.sum.unpricedRecords > 0))
      io.stdout.write(
        '\n* includes responses of models the price table does not know: their cost is not counted.\n',
      );
  }
  for (const n of notes) io.stderr.write(`carapace usage: ${terminalSafe(n)}\n`);
  return 0;
}

function shiftDay(day: Day, days: number): Day {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d + days).getTime());
}

function sourceLabel(choice: SourceChoice, sources: UsageSource[]): string {
  if (choice === 'all') return sources.length === 2 ? ', Carapace and Claude Code' : ', Carapace';
  return choice === 'carapace' ? ', Carapace' : ', Claude Code';
}

const zeroTokens = (): TokenCounts => ({
  input: 0,
  output: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 0,
  webSearches: 0,
});

function addSum(a: CostSum, b: CostSum): CostSum {
  const tokens = zeroTokens();
  for (const k of Object.keys(tokens) as (keyof TokenCounts)[]) tokens[k] = a.tokens[k] + b.tokens[k];
  return {
    costMicros: a.costMicros + b.costMicros,
    tokens,
    records: a.records + b.records,
    unpricedRecords: a.unpricedRecords + b.unpricedRecords,
  };
}

/** Days with usage, months with usage (from the same days), or the sessions of the range. */
function rowsOf(
  view: UsageOptions['view'],
  days: { day: Day; byModel: Record<string, CostSum>; total: CostSum }[],
  sessions: SessionCostRow[],
): Row[] {
  if (view === 'session')
    return sessions.map((s) => ({
      label: s.title || s.sessionId,
      sum: s,
      models: s.models,
      project: `${path.basename(s.projectPath)}${s.source === 'claude-code' ? ' (Claude Code)' : ''}`,
    }));
  const used = days.filter((d) => d.total.records > 0);
  if (view === 'daily')
    return used.map((d) => ({ label: d.day, sum: d.total, models: Object.keys(d.byModel).sort() }));
  const months = new Map<string, Row>();
  for (const d of used) {
    const key = d.day.slice(0, 7);
    const m = months.get(key) ?? {
      label: key,
      sum: { costMicros: 0, tokens: zeroTokens(), records: 0, unpricedRecords: 0 },
      models: [],
    };
    m.sum = addSum(m.sum, d.total);
    m.models = [...new Set([...m.models, ...Object.keys(d.byModel)])].sort();
    months.set(key, m);
  }
  return [...months.values()];
}

function costCell(s: CostSum): string {
  if (s.records > 0 && s.unpricedRecords === s.records) return 'unpriced';
  return `$${usdOfMicros(s.costMicros, 2)}${s.unpricedRecords > 0 ? '*' : ''}`;
}

function table(view: UsageOptions['view'], rows: Row[], total: Row): string {
  const first: TableColumn =
    view === 'session'
      ? { title: 'Session', align: 'left', max: 40 }
      : { title: view === 'daily' ? 'Date' : 'Month', align: 'left' };
  const columns: TableColumn[] = [
    first,
    ...(view === 'session' ? [{ title: 'Project', align: 'left', max: 30 } as const] : []),
    { title: 'Models', align: 'left', max: 40 },
    { title: 'Input', align: 'right' },
    { title: 'Output', align: 'right' },
    { title: 'Cache write', align: 'right' },
    { title: 'Cache read', align: 'right' },
    { title: 'Cost (USD)', align: 'right' },
  ];
  const cells = (r: Row) => [
    r.label,
    ...(view === 'session' ? [r.project ?? ''] : []),
    r.models.map(shortModel).join(', '),
    count(r.sum.tokens.input),
    count(r.sum.tokens.output),
    count(r.sum.tokens.cacheWrite5m + r.sum.tokens.cacheWrite1h),
    count(r.sum.tokens.cacheRead),
    costCell(r.sum),
  ];
  return renderTable(columns, rows.map(cells), cells({ ...total, models: [] }));
}

/** `claude-sonnet-4-5-20250929` → `sonnet-4-5`: the table is for reading; JSON keeps the full ids. */
function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

function sumJson(s: CostSum) {
  return {
    costMicros: s.costMicros,
    costUsd: Number(usdOfMicros(s.costMicros)),
    tokens: s.tokens,
    records: s.records,
    unpricedRecords: s.unpricedRecords,
  };
}

function rowJson(view: UsageOptions['view'], r: Row) {
  return { [view === 'daily' ? 'day' : 'month']: r.label, models: r.models, ...sumJson(r.sum) };
}

function sessionJson(s: SessionCostRow) {
  return {
    ...s,
    costUsd: Number(usdOfMicros(s.costMicros)),
    subAgentCostUsd: Number(usdOfMicros(s.subAgentCostMicros)),
  };
}
