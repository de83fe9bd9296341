import { describe, expect, it } from 'vitest';
import { stuckOf } from './stuck';

const start = Date.parse('2025-01-01T00:00:00.000Z');
const working = { state: 'working', lastProgressAt: '2025-01-01T00:00:00.000Z', recentCalls: [] as string[] };

describe('stuck detection', () => {
  it('flags a working member silent for longer than the limit, not one just under it', () => {
    expect(stuckOf(working, start + 120_000, 120_000)).toBeNull();
    expect(stuckOf(working, start + 120_001, 120_000)).toEqual({ kind: 'silent', forMs: 120_001 });
    // The limit is the person's: a shorter one flags sooner.
    expect(stuckOf(working, start + 31_000, 30_000)).toEqual({ kind: 'silent', forMs: 31_000 });
  });

  it('flags the same call three times in a row, but not two, nor three different ones', () => {
    const call = 'Bash({"command":"npm test"})';
    expect(stuckOf({ ...working, recentCalls: [call, call, call] }, start, 120_000)).toEqual({
      kind: 'repeating',
      call,
    });
    expect(stuckOf({ ...working, recentCalls: [call, call] }, start, 120_000)).toBeNull();
    expect(stuckOf({ ...working, recentCalls: ['Read(a)', call, call] }, start, 120_000)).toBeNull();
  });

  it('never flags a member waiting for a person, idle or ended', () => {
    for (const state of ['waiting', 'idle', 'done', 'failed'])
      expect(stuckOf({ ...working, state, recentCalls: ['x', 'x', 'x'] }, start + 999_999, 1000)).toBeNull();
  });

  it('reads a missing or unreadable time as no evidence', () => {
    expect(stuckOf({ ...working, lastProgressAt: null }, start + 999_999, 1000)).toBeNull();
    expect(stuckOf({ ...working, lastProgressAt: 'not a date' }, start + 999_999, 1000)).toBeNull();
  });
});
