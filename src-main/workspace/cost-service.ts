import type { CostQuery, CostReport, Day, SessionCostDetail } from '@shared/domain/cost-report';
import type { CostTable } from '@shared/ipc/contract/cost';
import { onUsageLine } from '../harness/cost/usage-feed';
import { UsageLedger } from '../harness/cost/ledger';
import { PRICE_TABLE } from '../harness/cost/pricing';
import { AppError } from '../platform/errors';
import { projectSlug } from '../platform/paths';
import type { EventHub } from './event-hub';

/** How often an open dashboard is told of new usage at most. */
export const COST_UPDATE_INTERVAL_MS = 1_000;

export interface ClaudeCodeState {
  /** Claude Code's transcripts exist on this machine. */
  available: boolean;
  /** …and the setting says to read them. */
  enabled: boolean;
  dirs: string[];
}

export interface CostServiceDeps {
  carapaceHome: string;
  hub: EventHub;
  /** Asked before each report: the setting can change while the app runs. */
  claudeCode(): ClaudeCodeState;
  /** The folder of a project the workspace knows, or null. */
  projectPath(projectId: string): string | null;
  /** The project id of a session, or null when the workspace does not know it. */
  projectOfSession(sessionId: string): string | null;
  cacheFile?: string;
  /** The export formatter (C3's); null while it is not built. */
  exportTable?:
    | ((
        report: CostReport,
        table: CostTable,
        format: 'csv' | 'json',
      ) => { fileName: string; mimeType: string; text: string })
    | null;
}

/**
 * The usage ledger's life in the app: one ledger held in memory, brought up to date before each
 * answer (a stat of every transcript, re-reading only what changed), and `cost.updated` sent at most
 * about once a second while live sessions record usage, so an open dashboard refreshes.
 */
export class CostService {
  readonly ledger: UsageLedger;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Projects with new usage since the last event; null in the set: a session of unknown project. */
  private readonly changed = new Set<string | null>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: CostServiceDeps) {
    const cc = deps.claudeCode();
    this.ledger = new UsageLedger({
      carapaceHome: deps.carapaceHome,
      claudeCode: cc.enabled ? { dirs: cc.dirs } : null,
      ...(deps.cacheFile ? { cacheFile: deps.cacheFile } : {}),
    });
    this.unsubscribe = onUsageLine((_line, from) => this.usageRecorded(from.sessionId));
  }

  async report(q: CostQuery): Promise<CostReport> {
    if (q.from > q.to) throw new AppError('INVALID_INPUT', 'The range starts after it ends.');
    if (Number(q.to.slice(0, 4)) - Number(q.from.slice(0, 4)) > 10)
      throw new AppError('INVALID_INPUT', 'The range is longer than ten years.');
    const cc = this.deps.claudeCode();
    this.ledger.setClaudeCode(cc.enabled ? { dirs: cc.dirs } : null);
    await this.ledger.refresh();
    const sources = q.sources.filter((s) => s === 'carapace' || cc.enabled);
    const projectPaths = q.scope.kind === 'all' ? null : this.pathsOf(q.scope.projectId);
    const r = this.ledger.report({ projectPaths, from: q.from, to: q.to, sources });
    return { query: q, claudeCode: { available: cc.available, enabled: cc.enabled }, ...r };
  }

  async session(sessionId: string): Promise<SessionCostDetail> {
    await this.ledger.refresh();
    return this.ledger.sessionDetail(sessionId) ?? emptyDetail(sessionId);
  }

  async exportTable(
    q: CostQuery,
    table: CostTable,
    format: 'csv' | 'json',
  ): Promise<{ fileName: string; mimeType: string; text: string }> {
    const format_ = this.deps.exportTable;
    if (!format_) throw new AppError('UNAVAILABLE', 'Exporting the cost tables is not built yet.');
    return format_(await this.report(q), table, format);
  }

  /** Carapace's spend on a local day (the daily budgets' baseline). */
  async daySpend(day: Day): Promise<{ allMicros: number; byProject: Record<string, number> }> {
    await this.ledger.refresh();
    return this.ledger.daySpend(day);
  }

  dispose(): void {
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A project's folders: the one the workspace knows, and any other whose transcripts share its id. */
  private pathsOf(projectId: string): string[] {
    const known = this.deps.projectPath(projectId);
    const paths = this.ledger.projectPaths().filter((p) => p !== '' && projectSlug(p) === projectId);
    return known !== null && !paths.includes(known) ? [known, ...paths] : paths;
  }

  private usageRecorded(sessionId: string): void {
    this.changed.add(this.deps.projectOfSession(sessionId));
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const changed = [...this.changed];
      this.changed.clear();
      // One project: say which; several: every dashboard refreshes.
      this.deps.hub.emit('cost.updated', { projectId: changed.length === 1 ? (changed[0] ?? null) : null });
    }, COST_UPDATE_INTERVAL_MS);
    this.timer.unref();
  }
}

function emptyDetail(sessionId: string): SessionCostDetail {
  const zero = {
    costMicros: 0,
    tokens: { input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, webSearches: 0 },
    records: 0,
    unpricedRecords: 0,
  };
  return {
    sessionId,
    priceTable: { version: PRICE_TABLE.version, date: PRICE_TABLE.date },
    total: zero,
    byModel: [],
    byTurn: [],
    byMember: [{ agentId: null, name: 'Main agent', agentType: 'main', ...zero }],
  };
}
