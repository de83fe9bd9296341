import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors';
import { silentLogger } from '../platform/logger';
import { IpcRouter, type HandlerMap } from './router';

/** A router whose handlers are only the few each test needs; the rest must never be called. */
function router(handlers: Partial<HandlerMap>): IpcRouter {
  const all = new Proxy(handlers, {
    get: (target, key: string) =>
      target[key as keyof HandlerMap] ??
      (() => {
        throw new Error(`unexpected call to ${key}`);
      }),
  }) as HandlerMap;
  return new IpcRouter(all, silentLogger);
}

const ctx = { transport: 'websocket' as const };

describe('IpcRouter', () => {
  it('dispatches a valid request and validates the output too', async () => {
    const r = router({ 'sessions.stop': ({ sessionId }) => ({ stopped: sessionId === 's1' }) });
    expect(await r.dispatch('sessions.stop', { sessionId: 's1' }, ctx)).toEqual({
      ok: true,
      value: { stopped: true },
    });
  });

  it('refuses unknown channels, including prototype keys', async () => {
    const r = router({});
    for (const channel of ['nope', 'toString', '__proto__', 'constructor', 42, null, { a: 1 }]) {
      const result = await r.dispatch(channel, {}, ctx);
      expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    }
  });

  it('refuses inputs of the wrong type, with missing fields or extra fields, naming the field', async () => {
    const r = router({
      'sessions.rename': () => {
        throw new Error('must not run');
      },
    });
    const cases: unknown[] = [
      { sessionId: 5, title: 'x' },
      { sessionId: 'a' },
      { sessionId: 'a', title: 'x', extra: 1 },
      'text',
      [1, 2],
      { sessionId: 'a', title: '   ' },
    ];
    for (const input of cases) {
      const result = await r.dispatch('sessions.rename', input, ctx);
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT', message: 'Invalid input for sessions.rename.' },
      });
    }
    const missing = await r.dispatch('sessions.rename', { sessionId: 'a' }, ctx);
    expect(missing.ok ? [] : missing.error.details).toEqual([expect.stringMatching(/^title: /)]);
  });

  it('passes typed service errors through and hides nothing else', async () => {
    const r = router({
      'sessions.stop': () => {
        throw new AppError('CONFLICT', 'busy', { retryable: true });
      },
      'sessions.get': () => {
        throw new TypeError('boom');
      },
    });
    expect(await r.dispatch('sessions.stop', { sessionId: 'x' }, ctx)).toEqual({
      ok: false,
      error: { code: 'CONFLICT', message: 'busy', retryable: true },
    });
    expect(await r.dispatch('sessions.get', { sessionId: 'x' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL', message: expect.stringContaining('boom') },
    });
  });

  it('turns a handler output that breaks the contract into INTERNAL rather than sending it', async () => {
    const r = router({ 'sessions.stop': () => ({ stopped: 'yes' }) as unknown as { stopped: boolean } });
    expect(await r.dispatch('sessions.stop', { sessionId: 'x' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL' },
    });
  });
});
