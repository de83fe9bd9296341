import { describe, expect, it } from 'vitest';
import type { ToolUseBlock } from '@shared/domain/messages';
import { interruptedReplies } from '../session/interrupted-turn';
import { MAX_PARTIAL_INDEX, type TranscriptLine } from '../session/transcript-file';
import { PartialReplyWriter } from './partial-reply';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tool: ToolUseBlock = { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } };

describe('PartialReplyWriter', () => {
  it('writes text in pieces after a pause and a tool call at once, in an order that reads back', async () => {
    const lines: TranscriptLine[] = [];
    const w = new PartialReplyWriter((l) => lines.push(l), 20);
    w.apply({ type: 'assistant_start', itemId: 'a', model: 'm' });
    w.apply({ type: 'text_delta', itemId: 'a', index: 0, text: 'Let me ' });
    w.apply({ type: 'text_delta', itemId: 'a', index: 0, text: 'check.' });
    // Nothing yet: text waits for the pause.
    expect(lines).toEqual([]);
    await wait(40);
    expect(lines).toEqual([{ type: 'partial', itemId: 'a', model: 'm', index: 0, text: 'Let me check.' }]);
    w.apply({ type: 'text_delta', itemId: 'a', index: 0, text: ' Now:' });
    w.apply({ type: 'tool_start', itemId: 'a', block: tool });
    // The tool call flushes the text before it.
    expect(
      lines.slice(1).map((l) => (l.type === 'partial' ? [l.index, l.text ?? l.toolUse?.id] : [])),
    ).toEqual([
      [0, ' Now:'],
      [1, 't1'],
    ]);
    expect(interruptedReplies(lines)[0]?.content).toEqual([
      { type: 'text', text: 'Let me check. Now:' },
      tool,
    ]);
    w.close();
  });

  it('marks a withdrawn attempt, and writes nothing more once the reply is saved whole', async () => {
    const lines: TranscriptLine[] = [];
    const w = new PartialReplyWriter((l) => lines.push(l), 10);
    w.apply({ type: 'assistant_start', itemId: 'a', model: 'm' });
    w.apply({ type: 'tool_start', itemId: 'a', block: tool });
    w.apply({ type: 'tombstone', itemId: 'a' });
    expect(lines.at(-1)).toMatchObject({ type: 'partial', itemId: 'a', withdrawn: true });
    expect(interruptedReplies(lines)).toEqual([]);
    w.apply({ type: 'assistant_start', itemId: 'b', model: 'm' });
    w.apply({ type: 'text_delta', itemId: 'b', index: 0, text: 'done' });
    w.apply({
      type: 'assistant',
      item: { kind: 'message', id: 'b', role: 'assistant', content: [], createdAt: '', status: 'complete' },
    });
    await wait(30);
    expect(lines.filter((l) => l.type === 'partial' && l.itemId === 'b')).toEqual([]);
  });

  it('a transcript that cannot be written loses the piece, not the process', async () => {
    const w = new PartialReplyWriter(() => {
      throw new Error('ENOSPC');
    }, 5);
    w.apply({ type: 'assistant_start', itemId: 'a', model: 'm' });
    w.apply({ type: 'text_delta', itemId: 'a', index: 0, text: 'x' });
    await wait(20);
    w.close();
  });

  it('writes no piece whose index is past the bound the transcript accepts', async () => {
    const lines: TranscriptLine[] = [];
    const w = new PartialReplyWriter((l) => lines.push(l), 5);
    w.apply({ type: 'assistant_start', itemId: 'a', model: 'm' });
    w.apply({ type: 'text_delta', itemId: 'a', index: 0, text: 'ok' });
    w.apply({ type: 'text_delta', itemId: 'a', index: 4294967294, text: 'hostile' });
    await wait(20);
    w.apply({ type: 'text_delta', itemId: 'a', index: MAX_PARTIAL_INDEX, text: 'edge' });
    // After the largest allowed index a tool call has no index left to take.
    w.apply({ type: 'tool_start', itemId: 'a', block: tool });
    w.close();
    expect(lines.map((l) => (l.type === 'partial' ? [l.index, l.text ?? l.toolUse?.id] : []))).toEqual([
      [0, 'ok'],
      [MAX_PARTIAL_INDEX, 'edge'],
    ]);
  });
});
