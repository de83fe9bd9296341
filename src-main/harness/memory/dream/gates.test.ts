import { describe, expect, it } from 'vitest';
import { checkDreamGates } from './gates';

const now = new Date('2026-12-03T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();

describe('autoDream gates', () => {
  it('passes when enabled, a day has gone by and five sessions have started', () => {
    expect(
      checkDreamGates({ enabled: true, now, state: { lastConsolidatedAt: hoursAgo(24), sessionsSince: 5 } }),
    ).toEqual({
      pass: true,
    });
  });

  it('stops first at "disabled", whatever the rest says', () => {
    const r = checkDreamGates({
      enabled: false,
      now,
      state: { lastConsolidatedAt: hoursAgo(1), sessionsSince: 0 },
    });
    expect(r).toMatchObject({ pass: false, gate: 'disabled' });
  });

  it('waits 24 hours since the last run, checked before the session count', () => {
    const r = checkDreamGates({
      enabled: true,
      now,
      state: { lastConsolidatedAt: hoursAgo(23.9), sessionsSince: 0 },
    });
    expect(r).toMatchObject({ pass: false, gate: 'too-soon' });
    expect(
      checkDreamGates({
        enabled: true,
        now,
        state: { lastConsolidatedAt: hoursAgo(23.9), sessionsSince: 50 },
      }),
    ).toMatchObject({ pass: false, gate: 'too-soon' });
  });

  it('waits for five sessions since the last run', () => {
    const r = checkDreamGates({
      enabled: true,
      now,
      state: { lastConsolidatedAt: hoursAgo(48), sessionsSince: 4 },
    });
    expect(r).toMatchObject({ pass: false, gate: 'too-few-sessions' });
    if (!r.pass) expect(r.message).toBe('4 of 5 sessions since the last consolidation.');
  });

  it('has no time gate before the first run, but still the session gate', () => {
    expect(
      checkDreamGates({ enabled: true, now, state: { lastConsolidatedAt: null, sessionsSince: 5 } }).pass,
    ).toBe(true);
    expect(
      checkDreamGates({ enabled: true, now, state: { lastConsolidatedAt: null, sessionsSince: 1 } }),
    ).toMatchObject({
      gate: 'too-few-sessions',
    });
  });

  it('takes other thresholds when given', () => {
    const state = { lastConsolidatedAt: hoursAgo(2), sessionsSince: 1 };
    expect(checkDreamGates({ enabled: true, now, state, minHours: 1, minSessions: 1 }).pass).toBe(true);
  });
});
