import { beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem, ToolResultBlock } from '@shared/domain/messages';
import { createAppStore } from './store';
import { TOGGLES_KEEP } from './transcripts-slice';

const streaming: MessageItem = {
  kind: 'message',
  id: 'm1',
  role: 'assistant',
  content: [],
  createdAt: '',
  status: 'streaming',
};

let store = createAppStore();
const state = () => store.getState();
const items = (sessionId: string, agentId = sessionId) => state().transcripts[sessionId]?.[agentId]?.items;

beforeEach(() => {
  store = createAppStore();
});

describe('transcripts slice', () => {
  it('appends deltas to the streaming message, creating blocks as needed', () => {
    state().setTranscript('s', 's', [streaming]);
    state().applyDeltas([
      { sessionId: 's', agentId: 's', itemId: 'm1', index: 0, text: 'Hel' },
      { sessionId: 's', agentId: 's', itemId: 'm1', index: 0, text: 'lo' },
      { sessionId: 's', agentId: 's', itemId: 'm1', index: 2, text: 'later block' },
    ]);
    expect((items('s')?.[0] as MessageItem).content).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: '' },
      { type: 'text', text: 'later block' },
    ]);
  });

  it('drops stale deltas once the final form has arrived, so text is never doubled', () => {
    state().setTranscript('s', 's', [streaming]);
    state().upsertItem('s', 's', {
      ...streaming,
      status: 'complete',
      content: [{ type: 'text', text: 'Hello' }],
    });
    state().applyDeltas([{ sessionId: 's', agentId: 's', itemId: 'm1', index: 0, text: 'lo' }]);
    expect((items('s')?.[0] as MessageItem).content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  it('keeps a sub-agent’s transcript apart from its session’s, by agent id', () => {
    state().setTranscript('s', 's', [streaming]);
    state().setTranscript('s', 'agent-1', [{ ...streaming, id: 'c1' }]);
    state().applyDeltas([
      { sessionId: 's', agentId: 'agent-1', itemId: 'c1', index: 0, text: 'child' },
      { sessionId: 's', agentId: 's', itemId: 'm1', index: 0, text: 'parent' },
    ]);
    expect((items('s', 'agent-1')?.[0] as MessageItem).content).toEqual([{ type: 'text', text: 'child' }]);
    expect((items('s')?.[0] as MessageItem).content).toEqual([{ type: 'text', text: 'parent' }]);
    // A delta names its agent: the child's item id in the parent's transcript is not touched.
    state().applyDeltas([{ sessionId: 's', agentId: 's', itemId: 'c1', index: 0, text: 'stray' }]);
    expect((items('s', 'agent-1')?.[0] as MessageItem).content).toEqual([{ type: 'text', text: 'child' }]);
  });

  it('leaves other sessions and agents untouched (same object), so their views do not re-render', () => {
    state().setTranscript('a', 'a', [streaming]);
    state().setTranscript('b', 'b', [{ ...streaming, id: 'm2' }]);
    state().setTranscript('a', 'agent-1', [{ ...streaming, id: 'm3' }]);
    const other = state().transcripts['b'];
    const sibling = state().transcripts['a']?.['agent-1'];
    state().applyDeltas([{ sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: 'x' }]);
    expect(state().transcripts['b']).toBe(other);
    expect(state().transcripts['a']?.['agent-1']).toBe(sibling);
  });

  it('ignores events for transcripts not loaded yet (they are fetched whole when opened)', () => {
    state().upsertItem('unknown', 'unknown', streaming);
    state().applyDeltas(
      [{ sessionId: 'unknown', agentId: 'unknown', itemId: 'm1', index: 0, text: 'x' }],
      [{ sessionId: 'unknown', agentId: 'agent-9', toolUseId: 't', text: 'out' }],
    );
    state().setTranscript('s', 's', []);
    state().upsertItem('s', 'agent-not-loaded', streaming);
    expect(Object.keys(state().transcripts)).toEqual(['s']);
    expect(state().transcripts['s']).toEqual({ s: { items: [], results: {}, progress: {} } });
  });

  it('shows live tool output until the result arrives, then only the result', () => {
    state().setTranscript('s', 'agent-1', []);
    state().applyDeltas([], [{ sessionId: 's', agentId: 'agent-1', toolUseId: 't1', text: 'line 1\n' }]);
    state().applyDeltas([], [{ sessionId: 's', agentId: 'agent-1', toolUseId: 't1', text: 'line 2\n' }]);
    expect(state().transcripts['s']?.['agent-1']?.progress['t1']).toBe('line 1\nline 2\n');
    const result: ToolResultBlock = { type: 'tool_result', tool_use_id: 't1', content: 'done' };
    state().setToolResult('s', 'agent-1', result);
    state().applyDeltas([], [{ sessionId: 's', agentId: 'agent-1', toolUseId: 't1', text: 'late\n' }]);
    expect(state().transcripts['s']?.['agent-1']?.progress).toEqual({});
    expect(state().transcripts['s']?.['agent-1']?.results['t1']).toEqual(result);
  });

  it('collects tool results from a loaded transcript and from later items', () => {
    const results: MessageItem = {
      kind: 'message',
      id: 'r1',
      role: 'user',
      origin: 'tool_results',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }],
      createdAt: '',
      status: 'complete',
    };
    state().setTranscript('s', 's', [results]);
    expect(state().transcripts['s']?.['s']?.results['t1']?.content).toBe('ok');
    state().upsertItem('s', 's', {
      ...results,
      id: 'r2',
      content: [{ type: 'tool_result', tool_use_id: 't2', content: 'two' }],
    });
    expect(Object.keys(state().transcripts['s']?.['s']?.results ?? {})).toEqual(['t1', 't2']);
    state().removeItem('s', 's', 'r1');
    expect(items('s')?.map((i) => i.id)).toEqual(['r2']);
  });

  it('remembers tool card toggles per agent, the latest ones only, and forgets them with the transcript', () => {
    state().setTranscript('s', 's', []);
    const toggles = () => state().transcripts['s']?.['s']?.toggles ?? {};
    state().setToolOpen('s', 's', 't0', true);
    for (let i = 1; i <= TOGGLES_KEEP; i++) state().setToolOpen('s', 's', `t${i}`, i % 2 === 0);
    expect(Object.keys(toggles())).toHaveLength(TOGGLES_KEEP);
    expect(toggles()['t0']).toBeUndefined();
    expect(toggles()[`t${TOGGLES_KEEP}`]).toBe(TOGGLES_KEEP % 2 === 0);
    // A choice made again counts as recent: it outlives older ones.
    state().setToolOpen('s', 's', 't1', true);
    state().setToolOpen('s', 's', 'new', false);
    expect(toggles()['t1']).toBe(true);
    expect(toggles()['t2']).toBeUndefined();
    // Not loaded: nothing to remember it with.
    state().setToolOpen('other', 'other', 't1', true);
    expect(state().transcripts['other']).toBeUndefined();
    state().forgetTranscripts('s');
    state().setTranscript('s', 's', []);
    expect(toggles()).toEqual({});
  });

  it('forgets every transcript of one session, and only of that one', () => {
    state().setTranscript('s', 's', []);
    state().setTranscript('s', 'agent-1', []);
    state().setTranscript('t', 't', []);
    const other = state().transcripts['t'];
    state().forgetTranscripts('s');
    expect(Object.keys(state().transcripts)).toEqual(['t']);
    expect(state().transcripts['t']).toBe(other);
  });
});
