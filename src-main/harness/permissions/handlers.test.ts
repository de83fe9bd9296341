import { describe, expect, it } from 'vitest';
import {
  coordinatorWorkerHandler,
  interactiveHandler,
  swarmWorkerHandler,
  type Decider,
  type LeaderMailbox,
  type PermissionAnswer,
  type PermissionRequest,
} from './handlers';
import { ResolveOnce } from './resolve-once';

const request: PermissionRequest = {
  id: 'r1',
  sessionId: 's',
  toolName: 'Bash',
  toolUseId: 't',
  input: { command: 'touch x' },
  summary: 'touch x',
  reason: 'writes',
  suggestions: [],
};
const answer = (by: PermissionAnswer['by'], behavior: 'allow' | 'deny' = 'allow'): PermissionAnswer => ({
  behavior,
  by,
});
const at =
  (value: PermissionAnswer | null): Decider =>
  () =>
    Promise.resolve(value);

describe('ResolveOnce', () => {
  it('lets exactly one claimer deliver, once', async () => {
    const once = new ResolveOnce<number>();
    expect(once.claim()).toBe(true);
    expect(once.claim()).toBe(false);
    once.deliver(1);
    expect(() => once.deliver(2)).toThrow(/twice/);
    expect(await once.promise).toBe(1);
    expect(() => new ResolveOnce<number>().deliver(1)).toThrow(/without a successful claim/);
  });
});

describe('permission handlers', () => {
  it('interactive: hook, classifier and user answering at once → exactly one decision delivered', async () => {
    for (let round = 0; round < 50; round++) {
      const delivered: string[] = [];
      const spy =
        (d: Decider, name: string): Decider =>
        async (r, s) => {
          const a = await d(r, s);
          delivered.push(name);
          return a;
        };
      const handler = interactiveHandler({
        askUser: spy(at(answer('user')), 'user'),
        hooks: spy(at(answer('hook', 'deny')), 'hook'),
        classifier: spy(at(answer('classifier')), 'classifier'),
      });
      let resolved = 0;
      const result = await handler.resolve(request, new AbortController().signal).then((a) => {
        resolved++;
        return a;
      });
      await new Promise((r) => setTimeout(r, 0));
      // All three answered; one decision came out, the first to arrive.
      expect(delivered).toHaveLength(3);
      expect(resolved).toBe(1);
      expect(result.by).toBe(delivered[0]);
    }
  });

  it('interactive: the prompt is queued at once, and losers are cancelled when one decides', async () => {
    let userSignal: AbortSignal | null = null;
    const askUser: Decider = (_r, signal) => {
      userSignal = signal;
      return new Promise(() => undefined); // a person who never answers
    };
    const handler = interactiveHandler({
      askUser,
      classifier: () => new Promise((r) => setTimeout(() => r(answer('classifier')), 10)),
    });
    const result = await handler.resolve(request, new AbortController().signal);
    expect(result.by).toBe('classifier');
    expect((userSignal as AbortSignal | null)?.aborted).toBe(true);
  });

  it('interactive: stopping the turn answers a pending request with a denial', async () => {
    const turn = new AbortController();
    const pending = interactiveHandler({ askUser: () => new Promise(() => undefined) }).resolve(
      request,
      turn.signal,
    );
    turn.abort();
    expect(await pending).toMatchObject({ behavior: 'deny', by: 'user' });
  });

  it('coordinator worker: hooks, then classifier, then the person, in that order', async () => {
    const order: string[] = [];
    const step =
      (name: string, value: PermissionAnswer | null): Decider =>
      () => {
        order.push(name);
        return Promise.resolve(value);
      };
    const h = coordinatorWorkerHandler({
      hooks: step('hooks', null),
      classifier: step('classifier', null),
      askUser: step('user', answer('user', 'deny')),
    });
    expect(await h.resolve(request, new AbortController().signal)).toMatchObject({
      behavior: 'deny',
      by: 'user',
    });
    expect(order).toEqual(['hooks', 'classifier', 'user']);
  });

  it('swarm worker: asks the leader with the reply callback registered before sending (an instant reply is not lost)', async () => {
    const replies = new Map<string, (a: PermissionAnswer | null) => void>();
    const mailbox: LeaderMailbox = {
      onReply: (id, cb) => {
        replies.set(id, cb);
        return () => replies.delete(id);
      },
      // The leader answers synchronously, inside send().
      send: (r) => replies.get(r.id)?.(answer('user')),
    };
    const h = swarmWorkerHandler({
      classifier: at(null),
      mailbox,
      askUser: () => Promise.reject(new Error('must not ask')),
    });
    expect(await h.resolve(request, new AbortController().signal)).toMatchObject({
      behavior: 'allow',
      by: 'leader',
    });
    expect(replies.size).toBe(0);
  });
});

describe('interactiveHandler and the turn signal', () => {
  it('leaves no listener on the turn’s signal once a request is answered', async () => {
    const turn = new AbortController();
    const handler = interactiveHandler({
      askUser: () => Promise.resolve({ behavior: 'allow', by: 'user' }),
    });
    const added: string[] = [];
    const removed: string[] = [];
    const add = turn.signal.addEventListener.bind(turn.signal);
    const remove = turn.signal.removeEventListener.bind(turn.signal);
    turn.signal.addEventListener = (type: string, ...rest: [EventListener, AddEventListenerOptions?]) => {
      added.push(type);
      add(type, ...rest);
    };
    turn.signal.removeEventListener = (type: string, ...rest: [EventListener, EventListenerOptions?]) => {
      removed.push(type);
      remove(type, ...rest);
    };
    for (let i = 0; i < 20; i++) {
      const answer = await handler.resolve(
        {
          id: `r${i}`,
          sessionId: 's',
          toolName: 'Bash',
          toolUseId: `t${i}`,
          input: {},
          summary: '',
          reason: '',
          suggestions: [],
        },
        turn.signal,
      );
      expect(answer.behavior).toBe('allow');
    }
    expect(added).toHaveLength(20);
    expect(removed).toHaveLength(20);
  });
});
