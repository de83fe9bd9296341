import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { CostReport, Day, SessionCostDetail, UsageSource } from '@shared/domain/cost-report';
import { listClaudeCodeFiles, readClaudeCodeFile } from '../claude-code';
import { PRICE_TABLE } from '../pricing';
import * as aggregate from './aggregate';
import { loadCache, saveCache } from './cache-file';
import { columnsOf, countable, emptyColumns, type FileEntry, StringTable } from './columns';
import { type FlatLedger, flatten } from './flat';
import { readCarapaceFile } from './read-carapace';
import { listCarapaceFiles } from './scan';

export { localDay } from './local-day';
export type { TranscriptInfo, UsageRecord } from '../usage-record';

export const LEDGER_FILE = 'usage-ledger.json';
/** Problems listed in a report; the rest are counted. */
const MAX_PROBLEMS = 50;

export interface UsageLedgerOptions {
  carapaceHome: string;
  /** Claude Code's `projects/` folders to read too; null or absent: Carapace's own usage only. */
  claudeCode?: { dirs: string[] } | null;
  /** Default `$CARAPACE_HOME/usage-ledger.json`. */
  cacheFile?: string;
}

/**
 * The usage ledger: one record per API response, from every transcript, kept as a cache file that
 * is trusted per transcript only while that transcript's size and mtime are unchanged. Missing,
 * stale or corrupt, it is rebuilt from the transcripts, which stay the truth. Held in memory between
 * queries; `refresh` stats every transcript and re-reads only those that changed.
 */
export class UsageLedger {
  private readonly cacheFile: string;
  private claudeDirs: string[];
  private strings = new StringTable();
  private files = new Map<string, FileEntry>();
  private flat: FlatLedger | null = null;
  private loaded = false;
  private scanProblems: string[] = [];
  private builtAt = new Date(0).toISOString();

  constructor(private readonly o: UsageLedgerOptions) {
    this.cacheFile = o.cacheFile ?? path.join(o.carapaceHome, LEDGER_FILE);
    this.claudeDirs = o.claudeCode?.dirs ?? [];
  }

  /** Turns Claude Code's source on (with its folders) or off; the next refresh applies it. */
  setClaudeCode(c: { dirs: string[] } | null): void {
    this.claudeDirs = c?.dirs ?? [];
  }

  /** Async by contract (a later version may read in a worker); today it reads synchronously. */
  refresh(): Promise<{ changedFiles: number; problems: string[] }> {
    return Promise.resolve(this.refreshSync());
  }

  /** The same as `refresh`, for callers that cannot wait (the CLI, benchmarks). */
  refreshSync(): { changedFiles: number; problems: string[] } {
    const problems: string[] = [];
    if (!this.loaded) {
      this.loaded = true;
      const { cache, problem } = loadCache(this.cacheFile, PRICE_TABLE.version);
      if (problem) problems.push(problem);
      if (cache) {
        this.strings = cache.strings;
        this.files = cache.files;
      }
    }
    const wanted: { file: string; source: UsageSource }[] = [];
    const carapace = listCarapaceFiles(path.join(this.o.carapaceHome, 'projects'));
    problems.push(...carapace.problems);
    for (const file of carapace.files) wanted.push({ file, source: 'carapace' });
    for (const dir of this.claudeDirs) {
      const cc = listClaudeCodeFiles(dir);
      problems.push(...cc.problems);
      for (const file of cc.files) wanted.push({ file, source: 'claude-code' });
    }

    let changed = 0;
    const next = new Map<string, FileEntry>();
    for (const { file, source } of wanted) {
      let st;
      try {
        st = lstatSync(file);
      } catch {
        continue; // removed while listing
      }
      if (!st.isFile()) continue;
      const cached = this.files.get(file);
      if (
        cached &&
        cached.size === st.size &&
        cached.mtimeMs === st.mtimeMs &&
        (cached.info?.source ?? source) === source
      ) {
        next.set(file, cached);
        continue;
      }
      changed++;
      next.set(file, this.read(file, source, st.size, st.mtimeMs));
    }
    // A transcript gone from disk takes its records with it.
    for (const file of this.files.keys()) if (!next.has(file)) changed++;
    this.files = next;
    if (changed > 0 || this.flat === null) {
      this.flat = flatten(this.files.values(), this.strings);
      this.builtAt = new Date().toISOString();
    }
    if (changed > 0) {
      try {
        saveCache(this.cacheFile, { strings: this.strings, files: this.files }, PRICE_TABLE.version);
        // Strings of deleted files are dropped on save; start again from the compact table.
        if (this.strings.size > 2 * 1_000 && this.strings.size > 2 * this.flat.n) {
          const reloaded = loadCache(this.cacheFile, PRICE_TABLE.version).cache;
          if (reloaded) {
            this.strings = reloaded.strings;
            this.files = reloaded.files;
            this.flat = flatten(this.files.values(), this.strings);
          }
        }
      } catch (error) {
        // Only a cache: failing to write it costs speed next time, never figures.
        problems.push(`The usage ledger could not be saved: ${(error as Error).message}`);
      }
    }
    this.scanProblems = problems;
    return { changedFiles: changed, problems: this.problems() };
  }

  report(q: aggregate.ReportQuery): Omit<CostReport, 'query' | 'claudeCode'> {
    const f = this.view();
    return {
      priceTable: { version: PRICE_TABLE.version, date: PRICE_TABLE.date },
      ...aggregate.report(f, q),
      problems: this.problems(q.sources),
      builtAt: this.builtAt,
    };
  }

  sessionDetail(sessionId: string): SessionCostDetail | null {
    const d = aggregate.sessionDetail(this.view(), sessionId);
    return d ? { ...d, priceTable: { version: PRICE_TABLE.version, date: PRICE_TABLE.date } } : null;
  }

  /** Carapace's spend on a local day, everywhere and per project folder. */
  daySpend(day: Day): { allMicros: number; byProject: Record<string, number> } {
    return aggregate.daySpend(this.view(), day);
  }

  /** Every project folder a session ran in (for matching a project id to its folders). */
  projectPaths(): string[] {
    return [...new Set(this.view().sessions.map((s) => s.projectPath))];
  }

  /** Every counted record (duplicates removed), for tests and the CLI. */
  records(): number {
    return this.view().n;
  }

  /** The first query of a ledger never refreshed brings it up to date. */
  private view(): FlatLedger {
    if (!this.flat) this.refreshSync();
    return this.current();
  }

  private current(): FlatLedger {
    return this.flat ?? flatten([], this.strings);
  }

  private problems(sources?: UsageSource[]): string[] {
    const out = [...this.scanProblems];
    for (const f of this.files.values())
      if (f.problems.length > 0 && (!sources || !f.info || sources.includes(f.info.source)))
        out.push(...f.problems);
    const unique = [...new Set(out)];
    return unique.length > MAX_PROBLEMS
      ? [...unique.slice(0, MAX_PROBLEMS), `${unique.length - MAX_PROBLEMS} more problems not listed.`]
      : unique;
  }

  private read(file: string, source: UsageSource, size: number, mtimeMs: number): FileEntry {
    const r = source === 'claude-code' ? readClaudeCodeFile(file) : readCarapaceFile(file);
    const records = r.records.filter(countable);
    const skipped = r.records.length - records.length;
    const problems =
      skipped === 0
        ? r.problems
        : [
            ...r.problems,
            `${file}: ${skipped} ${skipped === 1 ? 'record' : 'records'} skipped: a time, token count, cost or turn that is not a finite whole number in range.`,
          ];
    let earliestAt = r.earliestAt;
    // The earliest time orders duplicates; a skipped record's time must not be it.
    if (skipped > 0 && source === 'carapace') {
      earliestAt = null;
      for (const x of records) if (earliestAt === null || x.at < earliestAt) earliestAt = x.at;
    }
    return {
      path: file,
      size,
      mtimeMs,
      info: r.info,
      problems,
      earliestAt: earliestAt !== null && Number.isFinite(earliestAt) ? earliestAt : null,
      cols: r.info ? columnsOf(records, this.strings) : emptyColumns(),
    };
  }
}
