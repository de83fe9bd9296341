import { describe, expect, it } from 'vitest';
import { DaySpend, DAY_SPEND_STALE_MS, type DayTotals } from './day-spend';

describe('DaySpend', () => {
  it("reads the ledger's figure again once it is 30 s old, without counting this process's usage twice", async () => {
    let t = new Date(2026, 11, 3, 12, 0).getTime();
    // The ledger: what every process has on disk for the day.
    let ledger: DayTotals = { allMicros: 1_000, byProject: { '/p': 400 } };
    let reads = 0;
    const day = new DaySpend(
      {
        daySpend: () => {
          reads++;
          return { allMicros: ledger.allMicros, byProject: { ...ledger.byProject } };
        },
      },
      () => t,
    );
    expect(await day.today('/p')).toEqual({ allMicros: 1_000, projectMicros: 400 });
    day.add('/p', 50); // this process; its line is on disk, so the ledger has it too from now on
    // Another process spends 200 in /q.
    ledger = { allMicros: 1_250, byProject: { '/p': 450, '/q': 200 } };
    t += DAY_SPEND_STALE_MS - 1;
    expect(await day.today('/p')).toEqual({ allMicros: 1_050, projectMicros: 450 });
    expect(reads).toBe(1);
    t += 1;
    expect(await day.today('/p')).toEqual({ allMicros: 1_250, projectMicros: 450 });
    expect(await day.today('/q')).toEqual({ allMicros: 1_250, projectMicros: 200 });
    expect(reads).toBe(2);
    // Usage after the fresh read counts on top of it.
    day.add('/p', 10);
    expect(await day.today('/p')).toEqual({ allMicros: 1_260, projectMicros: 460 });
    expect(reads).toBe(2);
  });

  it('usage recorded while the figure is being read again is kept', async () => {
    let t = 0;
    let answer: (v: DayTotals) => void = () => undefined;
    let first = true;
    const day = new DaySpend(
      {
        daySpend: () => {
          if (first) {
            first = false;
            return { allMicros: 100, byProject: {} };
          }
          return new Promise<DayTotals>((resolve) => (answer = resolve));
        },
      },
      () => t,
    );
    expect((await day.today('/p')).allMicros).toBe(100);
    day.add('/p', 20);
    t += DAY_SPEND_STALE_MS;
    const reading = day.today('/p');
    day.add('/p', 7); // after the read began: not in the figure it returns
    answer({ allMicros: 120, byProject: { '/p': 20 } });
    expect(await reading).toEqual({ allMicros: 127, projectMicros: 27 });
  });

  it('a failed re-read keeps the last figure and what was counted since', async () => {
    let t = 0;
    let fail = false;
    const day = new DaySpend(
      {
        daySpend: () => {
          if (fail) throw new Error('ledger busy');
          return { allMicros: 100, byProject: {} };
        },
      },
      () => t,
    );
    expect((await day.today('/p')).allMicros).toBe(100);
    day.add('/p', 20);
    fail = true;
    t += DAY_SPEND_STALE_MS;
    expect((await day.today('/p')).allMicros).toBe(120);
    expect(day.problem).toContain('ledger busy');
  });
});
