import { beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem } from '@shared/domain/messages';
import { applyDeltas, setTranscript, upsertItem, useTranscripts } from './transcripts-store';

const streaming: MessageItem = {
  kind: 'message',
  id: 'm1',
  role: 'assistant',
  content: [],
  createdAt: '',
  status: 'streaming',
};

beforeEach(() => useTranscripts.setState({ bySession: {} }));

describe('transcripts store', () => {
  it('appends deltas to the streaming message, creating blocks as needed', () => {
    setTranscript('s', [streaming]);
    applyDeltas([
      { sessionId: 's', itemId: 'm1', index: 0, text: 'Hel' },
      { sessionId: 's', itemId: 'm1', index: 0, text: 'lo' },
      { sessionId: 's', itemId: 'm1', index: 2, text: 'later block' },
    ]);
    const item = useTranscripts.getState().bySession['s']?.[0] as MessageItem;
    expect(item.content).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: '' },
      { type: 'text', text: 'later block' },
    ]);
  });

  it('drops stale deltas once the final form has arrived, so text is never doubled', () => {
    setTranscript('s', [streaming]);
    upsertItem('s', { ...streaming, status: 'complete', content: [{ type: 'text', text: 'Hello' }] });
    applyDeltas([{ sessionId: 's', itemId: 'm1', index: 0, text: 'lo' }]);
    expect((useTranscripts.getState().bySession['s']?.[0] as MessageItem).content).toEqual([
      { type: 'text', text: 'Hello' },
    ]);
  });

  it('leaves other sessions untouched (same object), so their views do not re-render', () => {
    setTranscript('a', [streaming]);
    setTranscript('b', [{ ...streaming, id: 'm2' }]);
    const before = useTranscripts.getState().bySession['b'];
    applyDeltas([{ sessionId: 'a', itemId: 'm1', index: 0, text: 'x' }]);
    expect(useTranscripts.getState().bySession['b']).toBe(before);
  });

  it('ignores events for transcripts not loaded yet (they are fetched whole when opened)', () => {
    upsertItem('unknown', streaming);
    applyDeltas([{ sessionId: 'unknown', itemId: 'm1', index: 0, text: 'x' }]);
    expect(useTranscripts.getState().bySession).toEqual({});
  });
});
