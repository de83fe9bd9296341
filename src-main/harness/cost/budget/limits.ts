import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Budgets, type BudgetKind } from '@shared/domain/cost-report';
import { readJsonObject } from '../../permissions/settings-file';

/** Limits in integer micro-dollars, by kind; a missing kind has no limit. */
export type Limits = Partial<Record<BudgetKind, number>>;

/**
 * `limits`: what applies (the lower of the person's and the policy's). `policy`: the managed policy's
 * own limits, a ceiling nobody can raise from the app ("allow more" stops there).
 */
export type LimitsRead =
  { kind: 'ok'; limits: Limits; policy?: Limits | undefined } | { kind: 'invalid'; message: string };

export const usdToMicros = (usd: number): number => Math.round(usd * 1e6);

export function limitsOf(b: Budgets): Limits {
  const l: Limits = {};
  if (b.sessionUsd !== undefined) l.session = usdToMicros(b.sessionUsd);
  if (b.projectDailyUsd !== undefined) l.projectDaily = usdToMicros(b.projectDailyUsd);
  if (b.dailyUsd !== undefined) l.daily = usdToMicros(b.dailyUsd);
  return l;
}

type FileBudgets = { kind: 'ok'; budgets: Budgets } | { kind: 'invalid'; message: string };

/**
 * The `budgets` block of one settings file. A block that is there but wrong (a misspelt key, a
 * string for a number, a negative amount) is `invalid`, never "no limit": a typo must not quietly
 * remove a cap the person meant to set. A file that is not JSON at all is only invalid for budgets
 * when its text mentions them; otherwise nobody meant to set one there.
 */
function budgetsIn(file: string, where: string): FileBudgets {
  const read = readJsonObject(file);
  if (read.kind === 'missing') return { kind: 'ok', budgets: {} };
  if (read.kind === 'unreadable') {
    return mentionsBudgets(file)
      ? {
          kind: 'invalid',
          message: `${where} could not be read (${read.problem}), so its budgets are unknown`,
        }
      : { kind: 'ok', budgets: {} };
  }
  const raw = read.value['budgets'];
  if (raw === undefined) return { kind: 'ok', budgets: {} };
  const parsed = Budgets.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? `budgets.${issue.path.join('.')}` : 'budgets';
    return {
      kind: 'invalid',
      message: `${at} in ${where} is not valid (${issue?.message ?? 'wrong shape'}); expected amounts in USD such as {"sessionUsd": 5}`,
    };
  }
  return { kind: 'ok', budgets: parsed.data };
}

function mentionsBudgets(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').includes('budgets');
  } catch {
    return false;
  }
}

/**
 * The budgets that apply: the person's user settings (`$CARAPACE_HOME/settings.json`) and the managed
 * policy. A project's `.claude/settings*.json` is never read for them: a cloned repository could
 * otherwise raise or remove the person's limits. Where both set a limit the lower one applies (a
 * policy is a ceiling the person may tighten, not loosen).
 */
export function readBudgetLimits(loc: { home: string; policyFile: string }): LimitsRead {
  const user = budgetsIn(path.join(loc.home, 'settings.json'), 'your settings');
  const policy = budgetsIn(loc.policyFile, 'the managed policy');
  const bad = [user, policy].filter((r) => r.kind === 'invalid');
  if (bad.length > 0) return { kind: 'invalid', message: bad.map((b) => b.message).join('; ') };
  const limits = limitsOf(user.kind === 'ok' ? user.budgets : {});
  const ceiling = limitsOf(policy.kind === 'ok' ? policy.budgets : {});
  for (const [k, v] of Object.entries(ceiling) as [BudgetKind, number][]) {
    const mine = limits[k];
    limits[k] = mine === undefined ? v : Math.min(mine, v);
  }
  return { kind: 'ok', limits, policy: ceiling };
}
