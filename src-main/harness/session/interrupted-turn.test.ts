import { describe, expect, it } from 'vitest';
import type { MessageItem } from '@shared/domain/messages';
import { failedTail, interruptedReplies, turnUnfinished } from './interrupted-turn';
import type { TranscriptLine } from './transcript-file';

const at = '2026-01-01T00:00:00.000Z';
const piece = (itemId: string, index: number, extra: Partial<Extract<TranscriptLine, { type: 'partial' }>>) =>
  ({ type: 'partial', itemId, model: 'm', index, ...extra }) as TranscriptLine;
const msg = (id: string, role: 'user' | 'assistant', over: Partial<MessageItem> = {}): MessageItem => ({
  kind: 'message',
  id,
  role,
  content: [{ type: 'text', text: id }],
  createdAt: at,
  status: 'complete',
  ...over,
});

describe('interruptedReplies', () => {
  it('puts a reply back together from its pieces, text and tool calls in order', () => {
    const tool = { type: 'tool_use' as const, id: 't1', name: 'Bash', input: { command: 'ls' } };
    const [reply, ...rest] = interruptedReplies([
      piece('a', 0, { text: 'Let me ' }),
      piece('a', 0, { text: 'look. ' }),
      piece('a', 1, { toolUse: tool }),
    ]);
    expect(rest).toEqual([]);
    expect(reply).toMatchObject({
      id: 'a',
      role: 'assistant',
      status: 'interrupted',
      model: 'm',
      content: [{ type: 'text', text: 'Let me look. ' }, tool],
    });
  });

  it('puts blocks in index order however large or scattered the indices, without an array that size', () => {
    // Past the file bound, as if built directly: the cost must follow the number of pieces, not
    // the largest index (a sparse array that long took seconds to walk).
    const started = performance.now();
    const [reply] = interruptedReplies([
      piece('a', 2 ** 26, { text: 'last' }),
      piece('a', 7, { text: 'middle' }),
      piece('a', 0, { text: 'first ' }),
      piece('a', 0, { text: 'part' }),
    ]);
    // Microseconds when linear; the sparse walk took seconds. 1.5 s leaves a loaded machine room.
    expect(performance.now() - started).toBeLessThan(1500);
    expect(reply?.content).toEqual([
      { type: 'text', text: 'first part' },
      { type: 'text', text: 'middle' },
      { type: 'text', text: 'last' },
    ]);
  });

  it('trims the white space the API refuses at the end of an assistant message', () => {
    const [reply] = interruptedReplies([piece('a', 0, { text: 'Half a thought \n' })]);
    expect(reply?.content).toEqual([{ type: 'text', text: 'Half a thought' }]);
  });

  it('skips replies that were saved whole, withdrawn, or had nothing in them', () => {
    const saved: TranscriptLine = { type: 'item', item: msg('a', 'assistant') };
    expect(
      interruptedReplies([
        piece('a', 0, { text: 'x' }),
        saved,
        piece('b', 0, { text: 'y' }),
        piece('b', 0, { withdrawn: true }),
        piece('c', 0, { text: '  ' }),
      ]),
    ).toEqual([]);
  });
});

describe('turnUnfinished', () => {
  it('is true only when the last turn line is a start', () => {
    const start: TranscriptLine = { type: 'turn', phase: 'start', at };
    const end: TranscriptLine = { type: 'turn', phase: 'end', at };
    expect(turnUnfinished([start])).toBe(true);
    expect(turnUnfinished([start, end])).toBe(false);
    expect(turnUnfinished([start, end, start])).toBe(true);
    expect(turnUnfinished([])).toBe(false);
  });
});

describe('failedTail', () => {
  it('takes an unfinished reply (and the results closing its calls) off the end', () => {
    const u = msg('u', 'user', { origin: 'user' });
    const cut = msg('a', 'assistant', { status: 'interrupted' });
    const closing = msg('c', 'user', { origin: 'interrupt' });
    expect(failedTail([u, cut, closing]).map((m) => m.id)).toEqual(['a', 'c']);
    expect(failedTail([u, msg('e', 'assistant', { status: 'error' })]).map((m) => m.id)).toEqual(['e']);
  });

  it('leaves a finished reply, and the person message after an API error, alone', () => {
    const u = msg('u', 'user', { origin: 'user' });
    const done = msg('a', 'assistant');
    expect(failedTail([u])).toEqual([]);
    expect(failedTail([u, done])).toEqual([]);
    // A crash during a tool call: the reply was whole; its closing results stay for the model.
    expect(failedTail([u, done, msg('c', 'user', { origin: 'interrupt' })])).toEqual([]);
  });
});
