import { describe, expect, it } from 'vitest';
import type { MessageItem } from '@shared/domain/messages';
import { contextFromLines } from './context-window';
import { linesAfterCuts } from './cut-lines';
import type { TranscriptLine } from './transcript-file';

const at = '2026-12-06T00:00:00.000Z';
const msg = (id: string, role: 'user' | 'assistant', text: string): TranscriptLine => ({
  type: 'item',
  item: {
    kind: 'message',
    id,
    role,
    origin: role === 'user' ? 'user' : undefined,
    content: [{ type: 'text', text }],
    createdAt: at,
    status: 'complete',
  } as MessageItem,
});
const file = (path: string): TranscriptLine => ({
  type: 'file',
  path,
  beforeHash: null,
  afterHash: null,
  toolUseId: 't',
  head: null,
  at,
});
const ids = (lines: readonly TranscriptLine[]) =>
  lines.flatMap((l) => (l.type === 'item' ? [l.item.id] : l.type === 'file' ? [`file:${l.path}`] : [l.type]));

describe('linesAfterCuts', () => {
  const base: TranscriptLine[] = [
    msg('u1', 'user', 'one'),
    msg('a1', 'assistant', 'reply one'),
    { type: 'turn', phase: 'start', at },
    msg('u2', 'user', 'two'),
    file('/p/x'),
    msg('a2', 'assistant', 'reply two'),
    { type: 'title', title: 'kept', at },
  ];

  it('leaves a transcript without cuts as it is (old transcripts read the same)', () => {
    expect(linesAfterCuts(base)).toEqual(base);
  });

  it('takes the message and every conversation line after it out, keeping session state', () => {
    const cut = linesAfterCuts([...base, { type: 'cut', fromItemId: 'u2', at }, msg('u3', 'user', 'three')]);
    expect(ids(cut)).toEqual(['u1', 'a1', 'turn', 'title', 'u3']);
    expect(contextFromLines([...base, { type: 'cut', fromItemId: 'u2', at }]).map((m) => m.id)).toEqual([
      'u1',
      'a1',
    ]);
  });

  it('ignores a cut naming no item still there (crafted, or already cut)', () => {
    const lines: TranscriptLine[] = [
      ...base,
      { type: 'cut', fromItemId: 'nope', at },
      { type: 'cut', fromItemId: 'u2', at },
      { type: 'cut', fromItemId: 'a2', at },
    ];
    expect(ids(linesAfterCuts(lines))).toEqual(['u1', 'a1', 'turn', 'title']);
  });
});
