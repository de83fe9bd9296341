import { describe, expect, it } from 'vitest';
import { ageLabel, isStale } from './age';

describe('ageLabel', () => {
  it('words ages like recall does', () => {
    expect(ageLabel(0)).toBe('today');
    expect(ageLabel(0.9)).toBe('today');
    expect(ageLabel(1.5)).toBe('yesterday');
    expect(ageLabel(12)).toBe('12 days ago');
    expect(ageLabel(-3)).toBe('today');
  });
  it('marks memories older than a day as stale', () => {
    expect(isStale(1)).toBe(false);
    expect(isStale(2)).toBe(true);
  });
});
