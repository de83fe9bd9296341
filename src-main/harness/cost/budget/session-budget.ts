import type { BudgetKind } from '@shared/domain/cost-report';
import { formatMicros } from '@shared/domain/money';
import { CostTracker, type UsageReport } from '../tracker';
import type { BudgetLine } from '../usage-line';
import { localDayOf, type DaySpend } from './day-spend';
import type { Limits, LimitsRead } from './limits';

/** What the loop is told before a model request: go on, or end the turn (reason `budget`). */
export type BudgetDecision = 'go' | { stop: BudgetKind | 'invalid-settings'; message: string };

/**
 * Awaited by the loop before every model request of every agent of a session (main agent,
 * sub-agents and teammates share one), and told of every response's usage.
 */
export interface BudgetGate {
  beforeRequest(signal: AbortSignal): Promise<BudgetDecision>;
  recordUsage(report: UsageReport): void;
  /**
   * Whether an optional side request (the memory selector) may be made now: not while the session
   * is paused or stopped at a limit, or any limit is reached. Never asks, never waits for an answer.
   */
  sideRequestsAllowed?(): Promise<boolean>;
}

/** A limit reached: what the person is asked. */
export interface BudgetAsk {
  kind: BudgetKind;
  limitMicros: number;
  spentMicros: number;
  suggestedMoreMicros: number;
  /**
   * False when the limit reached is the managed policy's: the person cannot raise it, only stop.
   * ("Allow more" is never granted past the policy's limit either way.)
   */
  canAllowMore: boolean;
}

export type BudgetAnswer = { decision: 'allow_more'; moreMicros: number } | { decision: 'stop' };

/** "Allow $N more" starts at $1. */
export const DEFAULT_MORE_MICROS = 1_000_000;

export interface SessionBudgetOptions {
  sessionId: string;
  projectPath: string;
  /** The settings' limits, read before every request (the person may change them meanwhile). */
  limits: () => LimitsRead;
  /** Limits of this run besides the settings' (print mode's `--max-budget-usd`: kind `maxBudgetUsd`). */
  runLimits?: Limits | undefined;
  /** Today's spend for the daily limits; without it those limits are not checked. */
  daySpend?: DaySpend | null | undefined;
  /** What the session had spent before this process took it up (a reopened session), in micros. */
  spentBefore?: (() => number) | undefined;
  /**
   * Asks the person at a limit; null where nobody can be asked (print mode): the turn stops. Resolves
   * null when the question was withdrawn (the turn was stopped).
   */
  ask?: ((a: BudgetAsk, signal: AbortSignal) => Promise<BudgetAnswer | null>) | null | undefined;
  /** Warnings, pauses and answers, for the transcript and the window. */
  onEvent?: ((line: BudgetLine) => void) | undefined;
  /** The clock: what "today" is for the daily limits (a local day), and the lines' times. */
  now?: (() => number) | undefined;
}

const KINDS: readonly BudgetKind[] = ['maxBudgetUsd', 'session', 'projectDaily', 'daily'];
/** Limits per local day: what was allowed more, and the 80% warning, hold for that day only. */
const DAILY_KINDS: readonly BudgetKind[] = ['projectDaily', 'daily'];

/**
 * One session's budget. Spend is priced as the session's own cost is (CostTracker: integer
 * micro-dollars, each message id once). The session limit counts the whole session; `maxBudgetUsd`
 * counts this run only. At 80% of a limit one quiet warning per limit; at 100% the request waits for
 * the person's answer: allow N more (that limit rises by N for this session) or stop.
 */
export class SessionBudget implements BudgetGate {
  private readonly tracker: CostTracker;
  private readonly raised: Partial<Record<BudgetKind, number>> = {};
  private readonly warned = new Set<BudgetKind>();
  private before: number | null = null;
  /** The local day the daily limits' raises and warnings belong to. */
  private day: string | null = null;
  /** A question already asked: other agents of the session wait for the same answer. */
  private pause: Promise<void> | null = null;
  /**
   * Set when the person (or print mode's rule) stopped at a limit: every agent of the session stops
   * at its next request, without asking again, until the person sends a new message (`newTurn`).
   */
  private stopped: BudgetDecision | null = null;

  constructor(private readonly o: SessionBudgetOptions) {
    this.tracker = new CostTracker(o.sessionId);
  }

  /** Spent by this process for the session (all its agents), in micros. */
  get runMicros(): number {
    return this.tracker.snapshot().totalCostMicros;
  }

  recordUsage(report: UsageReport): void {
    const was = this.runMicros;
    // Prior spend is fixed before the first new response is counted (a reopened session's total).
    this.sessionBefore();
    if (!this.tracker.add(report)) return;
    const added = this.runMicros - was;
    if (added > 0) this.o.daySpend?.add(this.o.projectPath, added);
  }

  /** The person sent a new message: a limit reached again is asked about again. */
  newTurn(): void {
    this.stopped = null;
  }

  async beforeRequest(signal: AbortSignal): Promise<BudgetDecision> {
    for (;;) {
      if (signal.aborted) return 'go';
      if (this.stopped) return this.stopped;
      if (this.pause) {
        await waitOrAbort(this.pause, signal);
        continue;
      }
      const read = this.o.limits();
      if (read.kind === 'invalid') {
        // Refuse rather than run unlimited: the person meant to set a limit and mistyped it.
        return {
          stop: 'invalid-settings',
          message: `Budget settings are not valid, so no model calls are made until they are fixed: ${read.message}.`,
        };
      }
      const limits: Limits = { ...read.limits, ...this.o.runLimits };
      const spent = await this.spent(limits);
      this.rollDay();
      // Another agent of the session may have asked, been answered or stopped during that await:
      // look again, so two agents reaching the limit together make one question, not two.
      if (this.pausedOrStopped() || isAborted(signal)) continue;
      let reached: BudgetAsk | null = null;
      for (const kind of KINDS) {
        const applies = this.limitOf(kind, limits, read.policy);
        if (!applies) continue;
        const { limit, byPolicy } = applies;
        const s = spent[kind];
        // Integer micros: spent >= 80% of limit, exactly.
        if (s * 5 >= limit * 4 && !this.warned.has(kind)) {
          this.warned.add(kind);
          this.emit({ event: 'warning', kind, limitMicros: limit, spentMicros: s });
        }
        if (s >= limit && !reached)
          reached = {
            kind,
            limitMicros: limit,
            spentMicros: s,
            suggestedMoreMicros: DEFAULT_MORE_MICROS,
            canAllowMore: !byPolicy,
          };
      }
      if (!reached) return 'go';
      const stop = { stop: reached.kind, message: reachedMessage(reached) };
      const ask = this.o.ask;
      if (!ask || reached.kind === 'maxBudgetUsd') {
        // Nobody to ask (print mode), or the run's own cap: the run ends here, logged as stopped.
        this.emit({
          event: 'stopped',
          kind: reached.kind,
          limitMicros: reached.limitMicros,
          spentMicros: reached.spentMicros,
        });
        return (this.stopped = stop);
      }
      const asked = reached;
      this.emit({
        event: 'paused',
        kind: asked.kind,
        limitMicros: asked.limitMicros,
        spentMicros: asked.spentMicros,
      });
      // The turn stopped (Esc) while paused: the answer no longer matters, whatever the asker does.
      const answering: Promise<BudgetAnswer | null> = isAborted(signal)
        ? Promise.resolve(null)
        : Promise.race([ask(asked, signal), aborted(signal)]);
      const pause = answering.then(() => undefined);
      this.pause = pause;
      let a: BudgetAnswer | null;
      try {
        a = await answering;
      } finally {
        if (this.pause === pause) this.pause = null;
      }
      if (a === null) {
        if (isAborted(signal)) return 'go';
        return (this.stopped = stop);
      }
      const base = { kind: asked.kind, limitMicros: asked.limitMicros, spentMicros: asked.spentMicros };
      if (a.decision === 'stop') {
        this.emit({ event: 'stopped', ...base });
        return (this.stopped = stop);
      }
      // A policy's limit is not raised whatever the answer says: the next check asks again.
      if (!asked.canAllowMore) continue;
      // Answered on another day than asked: a daily limit starts afresh today, nothing to raise.
      if (DAILY_KINDS.includes(asked.kind) && this.rollDay()) continue;
      this.raised[asked.kind] = (this.raised[asked.kind] ?? 0) + a.moreMicros;
      this.emit({ event: 'allowed', ...base, moreMicros: a.moreMicros });
    }
  }

  async sideRequestsAllowed(): Promise<boolean> {
    if (this.pausedOrStopped()) return false;
    const read = this.o.limits();
    if (read.kind === 'invalid') return false;
    const limits: Limits = { ...read.limits, ...this.o.runLimits };
    const spent = await this.spent(limits);
    this.rollDay();
    if (this.pausedOrStopped()) return false;
    return KINDS.every((kind) => {
      const applies = this.limitOf(kind, limits, read.policy);
      return !applies || spent[kind] < applies.limit;
    });
  }

  /** The limit of a kind as it stands: the set one, plus what was allowed more, under the policy's. */
  private limitOf(
    kind: BudgetKind,
    limits: Limits,
    policy: Limits | undefined,
  ): { limit: number; byPolicy: boolean } | null {
    const base = limits[kind];
    if (base === undefined) return null;
    const raised = base + (this.raised[kind] ?? 0);
    // The policy's limit is a ceiling: what the person allowed more never goes past it.
    const ceiling = policy?.[kind];
    const byPolicy = ceiling !== undefined && ceiling <= raised;
    return { limit: byPolicy ? ceiling : raised, byPolicy };
  }

  /**
   * A new local day: the daily limits' raises and warnings were for the day before. True when the
   * day changed.
   */
  private rollDay(): boolean {
    const day = localDayOf(this.now());
    if (day === this.day) return false;
    const first = this.day === null;
    this.day = day;
    if (first) return false;
    for (const kind of DAILY_KINDS) {
      delete this.raised[kind];
      this.warned.delete(kind);
    }
    return true;
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  /** Read through a call: an await may have changed them (no narrowing). */
  private pausedOrStopped(): boolean {
    return this.pause !== null || this.stopped !== null;
  }

  private sessionBefore(): number {
    if (this.before === null) this.before = this.o.spentBefore?.() ?? 0;
    return this.before;
  }

  private async spent(limits: Limits): Promise<Record<BudgetKind, number>> {
    const run = this.runMicros;
    // The day's baseline reads the ledger: only asked for when a daily limit is set.
    const daily = limits.daily !== undefined || limits.projectDaily !== undefined;
    const day = daily && this.o.daySpend ? await this.o.daySpend.today(this.o.projectPath) : null;
    return {
      maxBudgetUsd: run,
      session: this.sessionBefore() + run,
      projectDaily: day?.projectMicros ?? 0,
      daily: day?.allMicros ?? 0,
    };
  }

  private emit(line: Omit<BudgetLine, 'type' | 'at'>): void {
    this.o.onEvent?.({ type: 'budget', ...line, at: new Date(this.now()).toISOString() });
  }
}

const LIMIT_NAMES: Record<BudgetKind, string> = {
  session: 'session budget',
  projectDaily: "project's daily budget",
  daily: 'daily budget',
  maxBudgetUsd: '--max-budget-usd limit',
};

/** Money in budget messages, written as everywhere in the app (money.ts). */
export const usd = formatMicros;

export function limitName(kind: BudgetKind): string {
  return LIMIT_NAMES[kind];
}

function reachedMessage(a: BudgetAsk): string {
  return `Budget reached: ${usd(a.spentMicros)} spent of the ${LIMIT_NAMES[a.kind]} of ${usd(a.limitMicros)}; stopped before the next model call.`;
}

/** Read through a call: the signal may have been aborted during an await (no narrowing). */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function aborted(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
}

function waitOrAbort(p: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    signal.addEventListener('abort', done, { once: true });
    void p.finally(() => {
      signal.removeEventListener('abort', done);
      resolve();
    });
  });
}
