import { describe, expect, it } from 'vitest';
import { addDays, localDay, rangeDays } from './range';

// Local time, like the main process's days: 00:30 on 3 March is still 3 March here.
const now = new Date(2026, 2, 3, 0, 30);

describe('date ranges', () => {
  it('counts today, 7 and 30 days back from the local day, inclusive', () => {
    expect(localDay(now)).toBe('2026-03-03');
    expect(rangeDays({ kind: 'today' }, now)).toEqual({ from: '2026-03-03', to: '2026-03-03' });
    expect(rangeDays({ kind: 'days', days: 7 }, now)).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(rangeDays({ kind: 'days', days: 30 }, now)).toEqual({ from: '2026-02-02', to: '2026-03-03' });
  });

  it('crosses month and year ends', () => {
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('takes a custom range as given, and says what is wrong with a bad one', () => {
    expect(rangeDays({ kind: 'custom', from: '2026-01-05', to: '2026-02-01' }, now)).toEqual({
      from: '2026-01-05',
      to: '2026-02-01',
    });
    expect(rangeDays({ kind: 'custom', from: '2026-02-05', to: '2026-02-01' }, now)).toEqual({
      error: 'The start day is after the end day.',
    });
    expect(rangeDays({ kind: 'custom', from: '', to: '2026-02-01' }, now)).toEqual({
      error: 'Choose both a start and an end day.',
    });
  });
});
