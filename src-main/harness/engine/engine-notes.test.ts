import { describe, expect, it } from 'vitest';
import { noteFor } from './engine-notes';

const error = { code: 'overloaded_error', status: 529, message: 'Overloaded. Try again later.' };

/** What a loop event leaves in the transcript (the session's quiet notes). */
describe('loop event notes', () => {
  it('says how long a retry waits, in ms below a second and in seconds above', () => {
    expect(noteFor({ type: 'retry', attempt: 1, maxRetries: 3, delayMs: 512.4, error })).toMatchObject({
      kind: 'notice',
      level: 'info',
      code: 'retry',
      text: 'Overloaded; retrying in 512 ms (attempt 1 of 3).',
    });
    expect(noteFor({ type: 'retry', attempt: 2, maxRetries: 3, delayMs: 2_250, error })?.text).toBe(
      'Overloaded; retrying in 2.3 s (attempt 2 of 3).',
    );
  });

  it('warns of a fallback and shows an error with its code', () => {
    expect(noteFor({ type: 'fallback', from: 'claude-opus-4-1', to: 'claude-sonnet-4-5' })).toMatchObject({
      level: 'warning',
      code: 'fallback',
      text: 'claude-opus-4-1 is overloaded; switched to the fallback model claude-sonnet-4-5 for this turn.',
    });
    expect(noteFor({ type: 'error', error })).toMatchObject({ level: 'error', code: 'overloaded_error' });
  });

  it('names a compaction by its trigger and outcome', () => {
    const compaction = (o: { trigger: 'auto' | 'snip' | 'manual'; ok: boolean; breakerOpen?: boolean }) =>
      noteFor({
        type: 'compaction',
        summary: null,
        detail: 'd',
        tokensBefore: 1,
        breakerOpen: false,
        ...o,
      })?.code;
    expect(compaction({ trigger: 'manual', ok: true })).toBe('compact');
    expect(compaction({ trigger: 'manual', ok: false })).toBe('compact_failed');
    expect(compaction({ trigger: 'auto', ok: true })).toBe('autocompact');
    expect(compaction({ trigger: 'snip', ok: true })).toBe('snip');
    expect(compaction({ trigger: 'auto', ok: false })).toBe('autocompact_failed');
    expect(compaction({ trigger: 'auto', ok: false, breakerOpen: true })).toBe('autocompact_off');
  });

  it('leaves plain turns and streaming events without a note', () => {
    expect(noteFor({ type: 'transition', transition: { reason: 'next_turn', detail: '' } })).toBeNull();
    expect(noteFor({ type: 'text_delta', itemId: 'i', index: 0, text: 'x' })).toBeNull();
  });
});
