import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, events, isEventName, isRequestChannel, REQUEST_CHANNELS, requests } from './contract';
import { exactSessionCost, formatSessionCost } from '../domain/cost';

describe('IPC contract', () => {
  it('gives every channel an input and an output schema, and every event a payload schema', () => {
    expect(REQUEST_CHANNELS.length).toBeGreaterThan(15);
    for (const c of REQUEST_CHANNELS) {
      expect(typeof requests[c].input.safeParse).toBe('function');
      expect(typeof requests[c].output.safeParse).toBe('function');
    }
    for (const e of EVENT_NAMES) expect(typeof events[e].safeParse).toBe('function');
  });

  it('recognizes only its own names, never inherited object keys', () => {
    expect(isRequestChannel('sessions.send')).toBe(true);
    expect(isEventName('stream.batch')).toBe(true);
    for (const bad of ['toString', '__proto__', 'constructor', 'hasOwnProperty', '', 1, null]) {
      expect(isRequestChannel(bad)).toBe(false);
      expect(isEventName(bad)).toBe(false);
    }
  });

  it('trims and bounds user text', () => {
    expect(requests['sessions.send'].input.safeParse({ sessionId: 's', text: '   ' }).success).toBe(false);
    expect(
      requests['sessions.rename'].input.safeParse({ sessionId: 's', title: 'x'.repeat(201) }).success,
    ).toBe(false);
  });
});

describe('cost formatting', () => {
  it('writes a session cost as the dashboard does (money.ts), with the exact figure for the hover', () => {
    expect(formatSessionCost(0.51, 'priced')).toBe('$0.51');
    expect(formatSessionCost(0.5, 'priced')).toBe('$0.50');
    expect(formatSessionCost(0.00123, 'priced')).toBe('<$0.01');
    expect(exactSessionCost(0.00123, 'priced')).toBe('$0.00123');
    expect(exactSessionCost(0.00123, 'unpriced')).toBe('$0.00123 + unpriced');
  });
  it('says demo and unpriced plainly, never a bare $0 for an unknown model', () => {
    expect(formatSessionCost(0, 'demo')).toBe('$0 (demo)');
    expect(formatSessionCost(0, 'unpriced')).toBe('unpriced');
    expect(formatSessionCost(1.5, 'unpriced')).toBe('$1.50 + unpriced');
  });
});
