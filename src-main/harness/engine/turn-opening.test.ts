import { describe, expect, it } from 'vitest';
import { ZERO_USAGE } from '@shared/domain/usage';
import { blockedResult, hookAnswerNotes, openingMessages, promptText } from './turn-opening';

describe('the items a user turn opens with', () => {
  it('gives the hooks an image-bearing prompt as its text blocks, one a line', () => {
    expect(promptText('plain')).toBe('plain');
    expect(
      promptText([
        { type: 'text', text: 'look at this' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } },
        { type: 'text', text: 'and this' },
      ]),
    ).toBe('look at this\n\nand this');
  });

  it("shows the hooks' messages as warnings, and the refusal last", () => {
    const notes = hookAnswerNotes({ blocked: 'no secrets', context: null, messages: ['one', 'two'] });
    expect(notes.map((n) => [n.level, n.code, n.text])).toEqual([
      ['warning', 'hook', 'one'],
      ['warning', 'hook', 'two'],
      ['warning', 'hook', 'A UserPromptSubmit hook blocked the prompt: no secrets'],
    ]);
    expect(hookAnswerNotes({ blocked: null, context: 'c', messages: [] })).toEqual([]);
  });

  it('a refused prompt completes with no request and nothing spent', () => {
    const result = blockedResult('s1', 'no secrets', 12.6);
    expect(result).toMatchObject({
      sessionId: 's1',
      terminal: { reason: 'completed', detail: 'A UserPromptSubmit hook blocked the prompt: no secrets' },
      text: '',
      numTurns: 0,
      durationMs: 13,
      durationApiMs: 0,
      error: null,
    });
    expect(result.usage).toEqual(ZERO_USAGE);
  });

  it("puts the person's message first, then the new day, then the hooks' context", () => {
    const items = openingMessages('hello', { dateChange: 'The date has changed.', hookContext: 'CTX' });
    expect(items.map((m) => [m.role, m.origin, m.content])).toEqual([
      ['user', 'user', [{ type: 'text', text: 'hello' }]],
      ['user', 'nudge', [{ type: 'text', text: 'The date has changed.' }]],
      ['user', 'nudge', [{ type: 'text', text: 'CTX' }]],
    ]);
    expect(new Set(items.map((m) => m.id)).size).toBe(3);
    expect(openingMessages('hello', { dateChange: null, hookContext: null })).toHaveLength(1);
  });
});
