import {
  DaySpend,
  readBudgetLimits,
  SessionBudget,
  usd,
  usdToMicros,
  type DaySpendSource,
} from '../harness/cost/budget';
import { UsageLedger } from '../harness/cost/ledger';
import type { BudgetLine } from '../harness/cost/usage-line';
import type { SourceLocations } from '../harness/permissions/settings-sources';

/**
 * The budget of a `-p` run. It honours `--max-budget-usd` (this run's spend) and the settings'
 * budgets (session, project per day, everything per day) as the app does, but nobody can be asked to
 * allow more: the first limit reached ends the run before its next model call.
 */
export function printBudget(o: {
  sessionId: string;
  projectRoot: string;
  locations: Pick<SourceLocations, 'home' | 'policyFile'>;
  maxBudgetUsd: number | null;
  carapaceHome: string;
  /** What the session had spent before this run (a resumed session). */
  spentBefore: () => number;
  /** Today's earlier spend, for the daily limits; the usage ledger by default. */
  daySpend?: DaySpendSource | null;
  log: (line: BudgetLine) => void;
  stderr: (text: string) => void;
}): SessionBudget {
  return new SessionBudget({
    sessionId: o.sessionId,
    projectPath: o.projectRoot,
    limits: () => readBudgetLimits(o.locations),
    runLimits: o.maxBudgetUsd !== null ? { maxBudgetUsd: usdToMicros(o.maxBudgetUsd) } : undefined,
    daySpend: new DaySpend(o.daySpend === undefined ? ledgerDays(o.carapaceHome) : o.daySpend),
    spentBefore: o.spentBefore,
    ask: null,
    onEvent: (line) => {
      o.log(line);
      if (line.event === 'warning')
        o.stderr(
          `80% of a budget spent: ${usd(line.spentMicros)} of ${usd(line.limitMicros)} (${line.kind}).`,
        );
    },
  });
}

/** Today's spend before this run, from the usage ledger (read only when a daily limit is set). */
function ledgerDays(carapaceHome: string): DaySpendSource {
  return {
    daySpend: async (day) => {
      const ledger = new UsageLedger({ carapaceHome, claudeCode: null });
      await ledger.refresh();
      return ledger.daySpend(day);
    },
  };
}
