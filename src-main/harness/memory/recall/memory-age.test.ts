import { describe, expect, it } from 'vitest';
import { freshnessWarning, memoryAgeDays, memoryAgeLabel } from './memory-age';

const now = new Date('2026-12-03T12:00:00Z');
const hoursAgo = (h: number) => now.getTime() - h * 60 * 60 * 1000;

describe('memory age', () => {
  it('counts whole days since the file was written', () => {
    expect(memoryAgeDays(hoursAgo(1), now)).toBe(0);
    expect(memoryAgeDays(hoursAgo(23.9), now)).toBe(0);
    expect(memoryAgeDays(hoursAgo(24), now)).toBe(1);
    expect(memoryAgeDays(hoursAgo(24 * 9 + 5), now)).toBe(9);
  });

  it('treats a file dated in the future as written today', () => {
    expect(memoryAgeDays(now.getTime() + 60_000, now)).toBe(0);
  });

  it('says today, yesterday or N days ago', () => {
    expect(memoryAgeLabel(0)).toBe('today');
    expect(memoryAgeLabel(1)).toBe('yesterday');
    expect(memoryAgeLabel(2)).toBe('2 days ago');
    expect(memoryAgeLabel(30)).toBe('30 days ago');
  });

  it('warns only past one day', () => {
    expect(freshnessWarning(0)).toBeNull();
    expect(freshnessWarning(1)).toBeNull();
    expect(freshnessWarning(2)).toMatch(/point-in-time observations/);
    expect(freshnessWarning(2)).toMatch(/verify .* against the current code/);
  });
});
