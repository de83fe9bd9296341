import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageItem, NoticeItem } from '@shared/domain/messages';
import { tempDir } from '../../test-support/temp';
import { readTranscript, TranscriptWriter } from '../session/transcript-file';
import { Conversation } from './conversation';

const at = '2026-01-01T00:00:00.000Z';
const message = (id: string, role: 'user' | 'assistant', content: MessageItem['content']): MessageItem => ({
  kind: 'message',
  id,
  role,
  content,
  createdAt: at,
  status: 'complete',
});

describe('Conversation', () => {
  it('keeps memory, disk and context in step; a shown note is not saved; resume gets the same back', () => {
    const file = path.join(tempDir(), 's.jsonl');
    const c = new Conversation('s', new TranscriptWriter(file));
    c.record(message('u1', 'user', [{ type: 'text', text: 'hi' }]));
    c.record(
      message('a1', 'assistant', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'x' } }]),
    );
    const note: NoticeItem = {
      kind: 'notice',
      id: 'n1',
      level: 'info',
      text: 'shown only',
      code: 'x',
      createdAt: at,
    };
    c.show(note);
    expect(c.items.map((i) => i.id)).toEqual(['u1', 'a1', 'n1']);
    expect(c.context.map((m) => m.id)).toEqual(['u1', 'a1']);
    // The tool call has no result: closing records one, so the next request is valid.
    const closing = c.closeDangling();
    expect(closing).not.toBeNull();
    expect(c.closeDangling()).toBeNull();
    c.saveCost();
    c.close();

    const lines = readTranscript(file).lines;
    const again = new Conversation('s', new TranscriptWriter(file));
    again.resume(lines);
    expect(again.items.map((i) => i.id)).toEqual(['u1', 'a1', closing?.id]);
    expect(again.context.map((m) => m.id)).toEqual(['u1', 'a1', closing?.id]);
  });
});
