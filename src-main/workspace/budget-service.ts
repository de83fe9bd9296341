import { randomUUID } from 'node:crypto';
import type { NoticeItem } from '@shared/domain/messages';
import {
  type Budgets,
  type BudgetRequestView,
  type BudgetResponse,
  type BudgetStatus,
} from '@shared/domain/cost-report';
import {
  DaySpend,
  DEFAULT_MORE_MICROS,
  limitName,
  readBudgetLimits,
  SessionBudget,
  usd,
  usdToMicros,
  type BudgetAnswer,
  type DaySpendSource,
} from '../harness/cost/budget';
import type { BudgetLine } from '../harness/cost/usage-line';
import type { SourceLocations } from '../harness/permissions/settings-sources';
import { AppError } from '../platform/errors';
import type { EventHub } from './event-hub';

interface Pending {
  view: BudgetRequestView;
  resolve: (answer: BudgetAnswer | null) => void;
}

/** What a session's budget needs from the session it belongs to. */
export interface BudgetSessionHooks {
  sessionId: string;
  projectPath: string;
  /** The session's cost before this process took it up (its saved total), in micros. */
  spentBefore: () => number;
  /** Appends a `budget` line to the session's transcript. */
  log: (line: BudgetLine) => void;
  /** Saves a notice in the session's transcript and shows it. */
  notice: (item: NoticeItem) => void;
}

/**
 * Budgets in the app: one SessionBudget per session (shared by its agents), today's spend shared by
 * all sessions, and the sessions paused at a limit, held as Inbox items until the person answers or
 * the turn stops (as the permission broker holds permission requests).
 */
export class BudgetService {
  readonly day: DaySpend;
  private readonly pending = new Map<string, Pending>();
  private readonly sessions = new Map<string, SessionBudget>();

  constructor(
    private readonly o: {
      hub: EventHub;
      /** Where the user settings and the managed policy are (a project's own settings never count). */
      locations: Pick<SourceLocations, 'home' | 'policyFile'>;
      /** The usage ledger's day totals (today's spend before this process); null: this process only. */
      daySource: DaySpendSource | null;
      onWaitingChanged: (sessionId: string) => void;
      /** The clock (local days for the daily limits); tests move it. */
      now?: () => number;
    },
  ) {
    this.day = new DaySpend(o.daySource, o.now);
  }

  /** The budget gate of a session, for its runtime. */
  gateFor(h: BudgetSessionHooks): SessionBudget {
    const gate = new SessionBudget({
      sessionId: h.sessionId,
      projectPath: h.projectPath,
      limits: () => readBudgetLimits(this.o.locations),
      daySpend: this.day,
      spentBefore: h.spentBefore,
      now: this.o.now,
      ask: (a, signal) =>
        new Promise((resolve) => {
          if (signal.aborted) return resolve(null);
          const view: BudgetRequestView = {
            id: randomUUID(),
            sessionId: h.sessionId,
            kind: a.kind,
            limitMicros: a.limitMicros,
            spentMicros: a.spentMicros,
            suggestedMoreMicros: a.suggestedMoreMicros,
            canAllowMore: a.canAllowMore,
            createdAt: new Date(this.o.now?.() ?? Date.now()).toISOString(),
          };
          this.pending.set(view.id, { view, resolve });
          this.o.hub.emit('budgets.requested', { request: view });
          this.o.onWaitingChanged(h.sessionId);
          signal.addEventListener(
            'abort',
            () => {
              // The turn stopped (Esc) while paused: the Inbox item goes.
              if (this.pending.delete(view.id)) this.settled(view, 'withdrawn');
              resolve(null);
            },
            { once: true },
          );
        }),
      onEvent: (line) => {
        h.log(line);
        const notify = (level: NoticeItem['level'], text: string) =>
          h.notice({ kind: 'notice', id: randomUUID(), level, text, code: 'budget', createdAt: line.at });
        const limit = `${limitName(line.kind)} of ${usd(line.limitMicros)}`;
        switch (line.event) {
          case 'warning':
            this.o.hub.emit('budgets.warning', {
              sessionId: h.sessionId,
              kind: line.kind,
              spentMicros: line.spentMicros,
              limitMicros: line.limitMicros,
            });
            notify('warning', `80% of the ${limit} spent (${usd(line.spentMicros)}).`);
            break;
          case 'paused':
            notify(
              'info',
              `Budget reached: ${usd(line.spentMicros)} of the ${limit}. Paused; answer in the Inbox.`,
            );
            break;
          case 'allowed':
            notify('info', `Allowed ${usd(line.moreMicros ?? 0)} more; the session goes on.`);
            break;
          case 'stopped':
            notify(
              'warning',
              `Budget reached: stopped at ${usd(line.spentMicros)} of the ${limit}. Send a message to be asked again.`,
            );
            break;
        }
      },
    });
    this.sessions.set(h.sessionId, gate);
    return gate;
  }

  /** The person sent a message: a limit reached again is asked about again. */
  newTurn(sessionId: string): void {
    this.sessions.get(sessionId)?.newTurn();
  }

  list(): BudgetRequestView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  waiting(sessionId: string): boolean {
    for (const p of this.pending.values()) if (p.view.sessionId === sessionId) return true;
    return false;
  }

  respond(r: BudgetResponse): void {
    const p = this.pending.get(r.requestId);
    if (!p)
      throw new AppError(
        'NOT_FOUND',
        'That budget question is no longer pending (answered, or its turn stopped).',
      );
    if (r.decision === 'allow_more' && !p.view.canAllowMore)
      // Nothing changes: the question stays in the Inbox, where only "stop" answers it.
      throw new AppError(
        'FORBIDDEN',
        `The ${limitName(p.view.kind)} is set by the managed policy; it cannot be raised here, only stopped at.`,
      );
    this.pending.delete(r.requestId);
    if (r.decision === 'allow_more') {
      const more = r.moreUsd !== undefined ? usdToMicros(r.moreUsd) : DEFAULT_MORE_MICROS;
      p.resolve({ decision: 'allow_more', moreMicros: Math.max(1, more) });
    } else p.resolve({ decision: 'stop' });
    this.settled(p.view, r.decision);
  }

  /** The limits of the user settings and where today stands (in one project when a path is given). */
  async status(budgets: Budgets, projectPath: string | null): Promise<BudgetStatus> {
    const today = await this.day.today(projectPath ?? '');
    return {
      budgets,
      projectTodayMicros: projectPath === null ? null : today.projectMicros,
      allTodayMicros: today.allMicros,
    };
  }

  private settled(view: BudgetRequestView, decision: 'allow_more' | 'stop' | 'withdrawn'): void {
    this.o.hub.emit('budgets.resolved', { requestId: view.id, sessionId: view.sessionId, decision });
    this.o.onWaitingChanged(view.sessionId);
  }
}
