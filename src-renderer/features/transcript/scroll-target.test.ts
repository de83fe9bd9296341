import { describe, expect, it } from 'vitest';
import type { MessageItem } from '@shared/domain/messages';
import type { Unit } from './fold';
import { unitIndexOf } from './scroll-target';

const message = (
  id: string,
  content: MessageItem['content'],
  role: 'user' | 'assistant' = 'assistant',
): MessageItem => ({
  kind: 'message',
  id,
  role,
  content,
  createdAt: '2026-06-01T00:00:00.000Z',
  status: 'complete',
});

const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: {} });

describe('the row a search result scrolls to', () => {
  const units: Unit[] = [
    { kind: 'item', item: message('u1', [{ type: 'text', text: 'hi' }], 'user') },
    {
      kind: 'fold',
      id: 'f1',
      messages: [message('a1', [call('t1')]), message('a2', [call('t2')])],
      summary: 'Read 2 files',
    },
    { kind: 'item', item: message('a3', [{ type: 'text', text: 'done' }, call('t3')]) },
    {
      kind: 'item',
      item: message('r3', [{ type: 'tool_result', tool_use_id: 't3', content: 'ok' }], 'user'),
    },
  ];

  it('finds a message by its id, one inside a fold by the fold, and a tool result by its call', () => {
    expect(unitIndexOf(units, 'u1', null)).toBe(0);
    expect(unitIndexOf(units, 'a2', null)).toBe(1);
    expect(unitIndexOf(units, 'whatever', 't1')).toBe(1);
    // The result's own row draws nothing: its call's card is where it shows.
    expect(unitIndexOf(units, 'r3', 't3')).toBe(2);
    expect(unitIndexOf(units, 'missing', null)).toBe(-1);
  });
});
