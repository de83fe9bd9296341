import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp';
import { readBudgetLimits } from './limits';

function layout() {
  const root = tempDir();
  const home = path.join(root, 'carapace');
  const project = path.join(root, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  const policyFile = path.join(root, 'managed-settings.json');
  const write = (file: string, value: unknown) =>
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return {
    loc: { home, policyFile },
    user: (v: unknown) => write(path.join(home, 'settings.json'), v),
    project: (v: unknown) => {
      write(path.join(project, '.claude', 'settings.json'), v);
      write(path.join(project, '.claude', 'settings.local.json'), v);
    },
    policy: (v: unknown) => write(policyFile, v),
  };
}

describe('readBudgetLimits', () => {
  it('reads the user settings in micro-dollars', () => {
    const l = layout();
    l.user({ model: 'x', budgets: { sessionUsd: 2.5, projectDailyUsd: 10, dailyUsd: 20 } });
    expect(readBudgetLimits(l.loc)).toEqual({
      kind: 'ok',
      limits: { session: 2_500_000, projectDaily: 10_000_000, daily: 20_000_000 },
      policy: {},
    });
  });

  it("never takes budgets from a project's .claude settings: a repository cannot raise or remove a limit", () => {
    const l = layout();
    l.user({ budgets: { sessionUsd: 1 } });
    l.project({ budgets: { sessionUsd: 1000, dailyUsd: 1000 } });
    expect(readBudgetLimits(l.loc)).toEqual({ kind: 'ok', limits: { session: 1_000_000 }, policy: {} });
  });

  it('a wrong budgets block is invalid, never "no limit"', () => {
    const l = layout();
    l.user({ budgets: { sesionUsd: 5 } });
    const typo = readBudgetLimits(l.loc);
    expect(typo.kind).toBe('invalid');
    expect(typo.kind === 'invalid' && typo.message).toContain('your settings');
    l.user({ budgets: { sessionUsd: '5' } });
    expect(readBudgetLimits(l.loc).kind).toBe('invalid');
    l.user({ budgets: { sessionUsd: -1 } });
    expect(readBudgetLimits(l.loc).kind).toBe('invalid');
    l.user('{ "budgets": { "sessionUsd": 5, } ');
    expect(readBudgetLimits(l.loc).kind).toBe('invalid');
  });

  it('a settings file that is not JSON and says nothing of budgets sets no limit', () => {
    const l = layout();
    l.user('{ "model": ');
    expect(readBudgetLimits(l.loc)).toEqual({ kind: 'ok', limits: {}, policy: {} });
  });

  it('the managed policy is a ceiling: the lower of policy and user applies', () => {
    const l = layout();
    l.user({ budgets: { sessionUsd: 5, dailyUsd: 1 } });
    l.policy({ budgets: { sessionUsd: 2, dailyUsd: 50, projectDailyUsd: 3 } });
    expect(readBudgetLimits(l.loc)).toEqual({
      kind: 'ok',
      limits: { session: 2_000_000, daily: 1_000_000, projectDaily: 3_000_000 },
      policy: { session: 2_000_000, daily: 50_000_000, projectDaily: 3_000_000 },
    });
  });
});
