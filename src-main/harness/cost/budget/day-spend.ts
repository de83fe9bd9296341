/** A calendar day in local time, `YYYY-MM-DD` (the ledger's days are local days too). */
export function localDayOf(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export interface DayTotals {
  allMicros: number;
  byProject: Record<string, number>;
}

/** What was spent on a day before this process started counting: the usage ledger's figures. */
export interface DaySpendSource {
  daySpend(day: string): Promise<DayTotals> | DayTotals;
}

/** How old the ledger's figure may be before it is read again: other processes spend meanwhile. */
export const DAY_SPEND_STALE_MS = 30_000;

/**
 * Today's spend for the daily limits, process-wide (every session shares one): a baseline from the
 * ledger, read the first time the day is asked about (a daily limit is checked), plus the usage this
 * process records after that moment. Usage recorded before the baseline is read is not counted live:
 * its transcript lines are on disk by then, so the ledger has it. Lines written while the baseline is
 * being read may be counted by both, which errs toward pausing a little early, never toward spending
 * past a limit. Without a ledger, only this process's usage counts.
 *
 * The baseline is read again when it is older than DAY_SPEND_STALE_MS (another Carapace, a print-mode
 * run, a consolidation spent meanwhile). The live usage counted before that read is dropped then,
 * for the same reason: the fresh figure has it.
 */
export class DaySpend {
  private day: string | null = null;
  private baseline: DayTotals = { allMicros: 0, byProject: {} };
  private live: DayTotals = { allMicros: 0, byProject: {} };
  /** Whether the day's baseline was asked for: live counting starts then. */
  private started = false;
  private loading: Promise<void> | null = null;
  /** When the baseline was last read (by the clock). */
  private readAt = 0;
  /** Why the baseline could not be read (then only this process's usage counts). */
  problem: string | null = null;

  constructor(
    private readonly source: DaySpendSource | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Today's spend, everywhere and in one project (by its folder). */
  async today(projectPath: string): Promise<{ allMicros: number; projectMicros: number }> {
    this.roll();
    if (!this.started || this.stale()) this.readBaseline();
    if (this.loading) await this.loading;
    return {
      allMicros: this.baseline.allMicros + this.live.allMicros,
      projectMicros: (this.baseline.byProject[projectPath] ?? 0) + (this.live.byProject[projectPath] ?? 0),
    };
  }

  add(projectPath: string, micros: number): void {
    this.roll();
    if (!this.started) return;
    this.live.allMicros += micros;
    this.live.byProject[projectPath] = (this.live.byProject[projectPath] ?? 0) + micros;
  }

  /** A new day: everything starts again; the baseline is read when first asked for. */
  private roll(): void {
    const day = localDayOf(this.now());
    if (day === this.day) return;
    this.day = day;
    this.baseline = { allMicros: 0, byProject: {} };
    this.live = { allMicros: 0, byProject: {} };
    // Without a ledger there is no baseline: live counting is all there is, from the start.
    this.started = this.source === null;
    this.loading = null;
  }

  private stale(): boolean {
    return this.source !== null && this.loading === null && this.now() - this.readAt >= DAY_SPEND_STALE_MS;
  }

  private readBaseline(): void {
    this.started = true;
    const source = this.source;
    const day = this.day;
    if (!source || day === null) return;
    this.readAt = this.now();
    // What this process counted so far: on disk by now, so in the figure about to be read.
    const counted: DayTotals = { allMicros: this.live.allMicros, byProject: { ...this.live.byProject } };
    const loading = (async () => {
      try {
        const b = await source.daySpend(day);
        if (this.day !== day) return;
        this.baseline = { allMicros: b.allMicros, byProject: { ...b.byProject } };
        this.live = minus(this.live, counted);
        this.problem = null;
      } catch (error) {
        this.problem = `Today's earlier spend could not be read: ${(error as Error).message}`;
      }
    })();
    this.loading = loading;
    void loading.finally(() => {
      if (this.loading === loading) this.loading = null;
    });
  }
}

function minus(a: DayTotals, b: DayTotals): DayTotals {
  const byProject: Record<string, number> = {};
  for (const [p, v] of Object.entries(a.byProject)) {
    const left = v - (b.byProject[p] ?? 0);
    if (left > 0) byProject[p] = left;
  }
  return { allMicros: Math.max(0, a.allMicros - b.allMicros), byProject };
}
