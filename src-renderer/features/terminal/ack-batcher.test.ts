import { afterEach, describe, expect, it, vi } from 'vitest';
import { AckBatcher } from './ack-batcher';

afterEach(() => vi.useRealTimers());

describe('AckBatcher', () => {
  it('sends one acknowledgement per 32 KB, and the remainder after a pause', () => {
    vi.useFakeTimers();
    const sent: number[] = [];
    const b = new AckBatcher((n) => sent.push(n));
    for (let i = 0; i < 10; i++) b.add(8 * 1024);
    expect(sent).toEqual([32 * 1024, 32 * 1024]);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual([32 * 1024, 32 * 1024, 16 * 1024]);
    b.add(10);
    b.dispose();
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(3);
  });
});
