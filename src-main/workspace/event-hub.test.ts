import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from './event-hub';

afterEach(() => vi.useRealTimers());

describe('EventHub', () => {
  it('batches deltas of all sessions into one message per interval, merging runs of one block', () => {
    vi.useFakeTimers();
    const hub = new EventHub({ flushIntervalMs: 16 });
    const sent: { event: string; payload: unknown }[] = [];
    hub.subscribe((event, payload) => sent.push({ event, payload }));
    hub.delta({ sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: 'Hel' });
    hub.delta({ sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: 'lo' });
    hub.delta({ sessionId: 'b', agentId: 'b', itemId: 'm2', index: 0, text: 'Hi' });
    hub.delta({ sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: '!' });
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(16);
    expect(sent).toEqual([
      {
        event: 'stream.batch',
        payload: {
          deltas: [
            { sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: 'Hello' },
            { sessionId: 'b', agentId: 'b', itemId: 'm2', index: 0, text: 'Hi' },
            { sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: '!' },
          ],
          progress: [],
          taskOutput: [],
        },
      },
    ]);
    expect(hub.stats).toMatchObject({ batches: 1, deltas: 3, events: 1 });
  });

  it("merges a background task's output per batch and keeps only the tail of a flood", () => {
    vi.useFakeTimers();
    const hub = new EventHub({ flushIntervalMs: 16 });
    const sent: { event: string; payload: unknown }[] = [];
    hub.subscribe((event, payload) => sent.push({ event, payload }));
    hub.taskOutput({ sessionId: 'a', taskId: 't1', text: 'start\n' });
    hub.taskOutput({ sessionId: 'a', taskId: 't2', text: 'other\n' });
    hub.taskOutput({ sessionId: 'a', taskId: 't1', text: `${'y\n'.repeat(10_000)}end` });
    vi.advanceTimersByTime(16);
    expect(sent).toHaveLength(1);
    const batch = sent[0]?.payload as { taskOutput: { taskId: string; text: string }[] };
    expect(batch.taskOutput.map((t) => t.taskId)).toEqual(['t1', 't2']);
    expect(batch.taskOutput[0]?.text.length).toBe(8192);
    expect(batch.taskOutput[0]?.text.endsWith('y\nend')).toBe(true);
    expect(batch.taskOutput[1]?.text).toBe('other\n');
  });

  it('flushes pending deltas before any other event, so a final message never overtakes its text', () => {
    vi.useFakeTimers();
    const hub = new EventHub();
    const order: string[] = [];
    hub.subscribe((event) => order.push(event));
    hub.delta({ sessionId: 'a', agentId: 'a', itemId: 'm1', index: 0, text: 'tail' });
    hub.emit('tabs.changed', { projectId: 'p', tabs: { open: [], active: null } });
    vi.advanceTimersByTime(100);
    expect(order).toEqual(['stream.batch', 'tabs.changed']);
  });

  it('keeps serving other sinks when one throws', () => {
    const hub = new EventHub();
    const got: string[] = [];
    hub.subscribe(() => {
      throw new Error('broken transport');
    });
    hub.subscribe((event) => got.push(event));
    hub.emit('projects.changed', { recent: [] });
    expect(got).toEqual(['projects.changed']);
  });
});
