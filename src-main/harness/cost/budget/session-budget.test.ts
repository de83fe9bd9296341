import { describe, expect, it } from 'vitest';
import type { BudgetLine } from '../usage-line';
import { DaySpend } from './day-spend';
import type { LimitsRead } from './limits';
import { SessionBudget, type BudgetAnswer, type BudgetAsk } from './session-budget';

// Sonnet 4.5 input is $3 per million tokens: every input token is exactly 3 micro-dollars.
const MODEL = 'claude-sonnet-4-5';
let n = 0;
const response = (inputTokens: number) => ({
  model: MODEL,
  apiId: `msg_${++n}`,
  usage: { inputTokens, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
});

function setup(
  limits: LimitsRead,
  answers: (BudgetAnswer | null)[] = [],
  extra: Partial<ConstructorParameters<typeof SessionBudget>[0]> = {},
) {
  const lines: BudgetLine[] = [];
  const asked: BudgetAsk[] = [];
  const budget = new SessionBudget({
    sessionId: 's1',
    projectPath: '/p',
    limits: () => limits,
    ask: (a) => {
      asked.push(a);
      return Promise.resolve(answers.shift() ?? null);
    },
    onEvent: (l) => lines.push(l),
    ...extra,
  });
  return { budget, lines, asked, signal: new AbortController().signal };
}

// $0.30 = 300,000 micros; 80% = 240,000 = 80,000 tokens.
const SESSION_30C: LimitsRead = { kind: 'ok', limits: { session: 300_000 } };

describe('SessionBudget', () => {
  it('warns once at 80% exactly, not at 79.9%', async () => {
    const { budget, lines, signal } = setup(SESSION_30C);
    budget.recordUsage(response(79_900)); // 239,700 micros: 79.9%
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(lines).toEqual([]);
    budget.recordUsage(response(100)); // 240,000: 80%
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(lines.map((l) => [l.event, l.kind, l.spentMicros, l.limitMicros])).toEqual([
      ['warning', 'session', 240_000, 300_000],
    ]);
    budget.recordUsage(response(10_000));
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(lines).toHaveLength(1);
  });

  it('counts a message id once however often it is reported', async () => {
    const { budget, signal, asked } = setup(SESSION_30C, [{ decision: 'stop' }]);
    const r = response(60_000); // 180,000
    budget.recordUsage(r);
    budget.recordUsage(r);
    expect(budget.runMicros).toBe(180_000);
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(asked).toEqual([]);
  });

  it('pauses at 100%, and "allow more" raises that limit by exactly N', async () => {
    const { budget, lines, asked, signal } = setup(SESSION_30C, [
      { decision: 'allow_more', moreMicros: 100_000 },
      { decision: 'stop' },
    ]);
    budget.recordUsage(response(100_000)); // 300,000: the limit
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(asked).toEqual([
      {
        kind: 'session',
        limitMicros: 300_000,
        spentMicros: 300_000,
        suggestedMoreMicros: 1_000_000,
        canAllowMore: true,
      },
    ]);
    expect(lines.map((l) => l.event)).toEqual(['warning', 'paused', 'allowed']);
    expect(lines[2]?.moreMicros).toBe(100_000);
    budget.recordUsage(response(33_333)); // 399,999: one micro under the raised limit
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(asked).toHaveLength(1);
    budget.recordUsage(response(1)); // 400,002
    const stopped = await budget.beforeRequest(signal);
    expect(stopped).toMatchObject({ stop: 'session' });
    expect(asked[1]).toMatchObject({ limitMicros: 400_000, spentMicros: 400_002 });
    expect(lines.map((l) => l.event)).toEqual(['warning', 'paused', 'allowed', 'paused', 'stopped']);
  });

  it('after "stop" every agent stops without asking, until the person sends a new message', async () => {
    const { budget, asked, signal } = setup(SESSION_30C, [{ decision: 'stop' }, { decision: 'stop' }]);
    budget.recordUsage(response(100_000));
    expect(await budget.beforeRequest(signal)).toMatchObject({ stop: 'session' });
    expect(await budget.beforeRequest(signal)).toMatchObject({ stop: 'session' });
    expect(asked).toHaveLength(1);
    budget.newTurn();
    expect(await budget.beforeRequest(signal)).toMatchObject({ stop: 'session' });
    expect(asked).toHaveLength(2);
  });

  it('two agents reaching the limit together make one question and both wait for its answer', async () => {
    const answers: ((a: BudgetAnswer) => void)[] = [];
    const asked: BudgetAsk[] = [];
    const budget = new SessionBudget({
      sessionId: 's1',
      projectPath: '/p',
      limits: () => SESSION_30C,
      ask: (a) => {
        asked.push(a);
        return new Promise((resolve) => answers.push(resolve));
      },
    });
    const signal = new AbortController().signal;
    budget.recordUsage(response(100_000));
    // The main agent and a sub-agent check the budget at the same moment.
    const main = budget.beforeRequest(signal);
    const sub = budget.beforeRequest(signal);
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    for (const answer of answers) answer({ decision: 'stop' });
    expect(await main).toMatchObject({ stop: 'session' });
    expect(await sub).toMatchObject({ stop: 'session' });
    expect(asked).toHaveLength(1);
  });

  it('with nobody to ask (print mode) stops at the limit and logs it', async () => {
    const { budget, lines, signal } = setup(SESSION_30C, [], { ask: null });
    budget.recordUsage(response(100_000));
    const d = await budget.beforeRequest(signal);
    expect(d).toMatchObject({ stop: 'session' });
    expect(d !== 'go' && d.message).toContain('$0.30');
    expect(lines.map((l) => l.event)).toEqual(['warning', 'stopped']);
  });

  it('refuses model calls while the budget settings are invalid', async () => {
    const { budget, signal } = setup({ kind: 'invalid', message: 'budgets.sesionUsd is unknown' });
    const d = await budget.beforeRequest(signal);
    expect(d).toMatchObject({ stop: 'invalid-settings' });
    expect(d !== 'go' && d.message).toContain('budgets.sesionUsd');
  });

  it('stopping the turn while paused withdraws the question and lets the loop see the abort', async () => {
    const control = new AbortController();
    const budget = new SessionBudget({
      sessionId: 's1',
      projectPath: '/p',
      limits: () => SESSION_30C,
      ask: (_a, signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true })),
    });
    budget.recordUsage(response(100_000));
    const waiting = budget.beforeRequest(control.signal);
    control.abort();
    expect(await waiting).toBe('go');
    expect(control.signal.aborted).toBe(true);
  });

  it('--max-budget-usd counts this run only; the session limit counts what the session spent before', async () => {
    const { budget, signal, asked } = setup({ kind: 'ok', limits: { session: 1_000_000 } }, [], {
      runLimits: { maxBudgetUsd: 300_000 },
      spentBefore: () => 600_000,
      ask: null,
    });
    budget.recordUsage(response(99_999)); // 299,997 this run; 899,997 for the session
    expect(await budget.beforeRequest(signal)).toBe('go');
    budget.recordUsage(response(1)); // 300,000 this run
    expect(await budget.beforeRequest(signal)).toMatchObject({ stop: 'maxBudgetUsd' });
    expect(asked).toEqual([]);
  });

  it('without a ledger, the daily spend is what this process recorded', async () => {
    const day = new DaySpend(null);
    day.add('/p', 7);
    day.add('/q', 5);
    expect(await day.today('/p')).toEqual({ allMicros: 12, projectMicros: 7 });
  });

  it('daily limits add the ledger baseline of today to what this process spends', async () => {
    const day = new DaySpend({ daySpend: () => ({ allMicros: 900_000, byProject: { '/p': 100_000 } }) });
    const { budget, asked, signal } = setup(
      { kind: 'ok', limits: { daily: 1_000_000, projectDaily: 500_000 } },
      [{ decision: 'stop' }],
      { daySpend: day },
    );
    // The first check reads the baseline; usage from then on is counted live.
    expect(await budget.beforeRequest(signal)).toBe('go');
    budget.recordUsage(response(33_333)); // 99,999: 999,999 today
    expect(await budget.beforeRequest(signal)).toBe('go');
    budget.recordUsage(response(1));
    expect(await budget.beforeRequest(signal)).toMatchObject({ stop: 'daily' });
    expect(asked[0]).toMatchObject({ kind: 'daily', spentMicros: 1_000_002, limitMicros: 1_000_000 });
    expect(await day.today('/p')).toEqual({ allMicros: 1_000_002, projectMicros: 200_002 });
  });

  it('a raise of a daily limit holds for its day only, and the 80% warning comes again the next day', async () => {
    let t = new Date(2026, 11, 3, 23, 0).getTime();
    const now = () => t;
    const day = new DaySpend(
      { daySpend: (d) => ({ allMicros: d === '2026-12-03' ? 600_000 : 720_000, byProject: {} }) },
      now,
    );
    const { budget, asked, lines, signal } = setup(
      { kind: 'ok', limits: { daily: 900_000 } },
      [{ decision: 'allow_more', moreMicros: 300_000 }, { decision: 'stop' }],
      { daySpend: day, now },
    );
    expect(await budget.beforeRequest(signal)).toBe('go'); // 600,000 from the ledger
    budget.recordUsage(response(40_000)); // 720,000: 80%
    budget.recordUsage(response(60_000)); // 900,000: the limit
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(asked).toEqual([expect.objectContaining({ kind: 'daily', limitMicros: 900_000 })]);
    expect(lines.map((l) => l.event)).toEqual(['warning', 'paused', 'allowed']);
    // Past midnight: a new day, 720,000 spent already; the $0.30 allowed yesterday is gone.
    t = new Date(2026, 11, 4, 0, 30).getTime();
    expect(await budget.beforeRequest(signal)).toBe('go');
    expect(lines.map((l) => l.event)).toEqual(['warning', 'paused', 'allowed', 'warning']);
    expect(lines[3]).toMatchObject({ kind: 'daily', spentMicros: 720_000, limitMicros: 900_000 });
    budget.recordUsage(response(60_000)); // 900,000 today
    expect(await budget.beforeRequest(signal)).toMatchObject({ stop: 'daily' });
    expect(asked[1]).toMatchObject({ kind: 'daily', limitMicros: 900_000, spentMicros: 900_000 });
  });

  it("a new local day starts from that day's baseline", async () => {
    let t = new Date(2026, 11, 3, 23, 59).getTime();
    const asked: string[] = [];
    const day = new DaySpend(
      {
        daySpend: (d) => {
          asked.push(d);
          return { allMicros: d === '2026-12-03' ? 500 : 7, byProject: {} };
        },
      },
      () => t,
    );
    // Before the baseline is read, usage is left to the ledger (its lines are on disk by then).
    day.add('/p', 3);
    expect((await day.today('/p')).allMicros).toBe(500);
    day.add('/p', 10);
    expect((await day.today('/p')).allMicros).toBe(510);
    t += 2 * 60_000;
    expect((await day.today('/p')).allMicros).toBe(7);
    expect(asked).toEqual(['2026-12-03', '2026-12-04']);
  });
});
