import { describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../harness/permissions/handlers';
import { AppError } from '../platform/errors';
import { EventHub } from './event-hub';
import { PermissionBroker } from './permission-broker';

const request = (id: string, suggestions = ['Bash(npm run build *)', 'Bash(cp *)']): PermissionRequest => ({
  id,
  sessionId: 's1',
  toolName: 'Bash',
  toolUseId: 't',
  input: { command: 'x' },
  summary: 'x',
  reason: 'r',
  suggestions,
});

function setup() {
  const hub = new EventHub();
  const events: string[] = [];
  hub.subscribe((e) => events.push(e));
  const waiting: string[] = [];
  const broker = new PermissionBroker(hub, (id) => waiting.push(id));
  return { broker, events, waiting, ask: broker.decider('/project') };
}

describe('PermissionBroker', () => {
  it('holds a request until a person answers; "Always allow" takes one rule per line', async () => {
    const { broker, events, ask } = setup();
    const answer = ask(request('r1'), new AbortController().signal);
    expect(broker.waiting('s1')).toBe(true);
    expect(broker.list().map((r) => r.id)).toEqual(['r1']);
    broker.respond({
      requestId: 'r1',
      decision: 'allow_always',
      rule: 'Bash(npm run build *)\n Bash(cp *) ',
    });
    expect(await answer).toMatchObject({
      behavior: 'allow',
      by: 'user',
      alwaysRules: ['Bash(npm run build *)', 'Bash(cp *)'],
    });
    expect(broker.waiting('s1')).toBe(false);
    expect(events).toEqual(['permissions.requested', 'permissions.resolved']);
  });

  it('answers with typed errors: gone requests, bad rules', () => {
    const { broker, ask } = setup();
    void ask(request('r2'), new AbortController().signal);
    expect(() => broker.respond({ requestId: 'nope', decision: 'allow_once' })).toThrow(AppError);
    expect(() => broker.respond({ requestId: 'r2', decision: 'allow_always', rule: 'Bash(' })).toThrow(
      /not valid/,
    );
    // Still pending after the bad attempt: nothing was lost.
    expect(broker.waiting('s1')).toBe(true);
    // The rule must come with the answer, as shown: a suggestion nobody saw is never written.
    expect(() => broker.respond({ requestId: 'r2', decision: 'allow_always' })).toThrow(
      /as shown to the person/,
    );
    expect(broker.waiting('s1')).toBe(true);
    void ask(request('r3', []), new AbortController().signal);
    expect(() => broker.respond({ requestId: 'r3', decision: 'allow_always', rule: ' \n ' })).toThrow(
      /no rule to save/,
    );
  });

  it('withdraws the question when another decider wins or the turn stops', async () => {
    const { broker, events, ask } = setup();
    const losers = new AbortController();
    const answer = ask(request('r4'), losers.signal);
    losers.abort();
    expect(await answer).toBeNull();
    expect(broker.list()).toEqual([]);
    expect(events).toEqual(['permissions.requested', 'permissions.resolved']);
  });

  it('passes deny feedback on', async () => {
    const { broker, ask } = setup();
    const answer = ask(request('r5'), new AbortController().signal);
    broker.respond({ requestId: 'r5', decision: 'deny', feedback: 'not now' });
    expect(await answer).toEqual({ behavior: 'deny', by: 'user', feedback: 'not now' });
  });
});
