import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerFrame } from '@shared/ipc/wire';
import { silentLogger } from '../platform/logger';
import { fakeRendererDir, testCarapace } from '../test-support/carapace';
import { startServe, type ServeHandle } from './serve';

async function serveForTest(): Promise<ServeHandle> {
  const { carapace } = await testCarapace();
  const handle = await startServe({
    carapace,
    rendererDir: fakeRendererDir(),
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger,
  });
  return handle;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with it when open, or with the HTTP status the upgrade was refused with. */
function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

/** Sends raw text and waits for the next response or protocol-error frame. */
function roundTrip(ws: WebSocket, text: string | Buffer): Promise<ServerFrame> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : '') as ServerFrame;
      if (frame.type === 'event') return;
      ws.off('message', onMessage);
      resolve(frame);
    };
    ws.on('message', onMessage);
    ws.send(text);
  });
}

describe('serve mode: token, Origin and Host', () => {
  it('refuses the page, its assets and unknown paths without the token; serves them with it', async () => {
    const serve = await serveForTest();
    try {
      expect((await get(serve.port, '/')).status).toBe(401);
      expect((await get(serve.port, '/assets/app.js')).status).toBe(401);
      expect((await get(serve.port, '/?token=wrong')).status).toBe(401);
      expect((await get(serve.port, `/?token=${'0'.repeat(64)}`)).status).toBe(401);

      const page = await get(serve.port, `/?token=${serve.token}`);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      const cookie = String((page.headers['set-cookie'] as string[])[0]).split(';')[0] ?? '';
      expect(cookie).toContain(`carapace_token_${serve.port}=`);
      // The cookie set by the page authorizes its assets.
      const asset = await get(serve.port, '/assets/app.js', { cookie });
      expect(asset.status).toBe(200);
      expect(asset.body).toContain('console.log');
      expect((await get(serve.port, '/../../etc/passwd', { cookie })).status).toBe(404);
      expect((await get(serve.port, '/%2e%2e/%2e%2e/etc/passwd', { cookie })).status).toBe(404);
    } finally {
      await serve.close();
    }
  });

  it('refuses a Host header that is not this server (DNS rebinding)', async () => {
    const serve = await serveForTest();
    try {
      const res = await get(serve.port, `/?token=${serve.token}`, { host: `evil.example:${serve.port}` });
      expect(res.status).toBe(403);
    } finally {
      await serve.close();
    }
  });

  it('refuses a socket without the token and one from a foreign Origin', async () => {
    const serve = await serveForTest();
    const base = `ws://127.0.0.1:${serve.port}/ws`;
    try {
      expect(await connect(base)).toBe(401);
      expect(await connect(`${base}?token=nope`)).toBe(401);
      expect(await connect(`${base}?token=${serve.token}`, { origin: 'http://evil.example' })).toBe(403);
      expect(
        await connect(`${base}?token=${serve.token}`, { origin: `http://127.0.0.1:${serve.port + 1}` }),
      ).toBe(403);

      const ok = await connect(`${base}?token=${serve.token}`, { origin: `http://127.0.0.1:${serve.port}` });
      expect(ok).toBeInstanceOf(WebSocket);
      const frame = await roundTrip(
        ok as WebSocket,
        JSON.stringify({ type: 'request', id: 1, channel: 'app.info', input: {} }),
      );
      expect(frame).toMatchObject({
        type: 'response',
        id: 1,
        result: { ok: true, value: { transport: 'websocket' } },
      });
      (ok as WebSocket).close();
    } finally {
      await serve.close();
    }
  });
});

describe('serve mode: malformed IPC gets a typed error and the app keeps running', () => {
  it('answers each bad frame with a typed error, then still serves a good request', async () => {
    const serve = await serveForTest();
    const ws = (await connect(`ws://127.0.0.1:${serve.port}/ws?token=${serve.token}`)) as WebSocket;
    try {
      const req = (id: number, channel: unknown, input: unknown) =>
        JSON.stringify({ type: 'request', id, channel, input });

      expect(await roundTrip(ws, 'this is not json')).toMatchObject({
        type: 'protocol-error',
        error: { code: 'MALFORMED_MESSAGE' },
      });
      expect(await roundTrip(ws, Buffer.from([1, 2, 3]))).toMatchObject({
        type: 'protocol-error',
        error: { code: 'MALFORMED_MESSAGE' },
      });
      expect(await roundTrip(ws, JSON.stringify({ id: 7, hello: 'there' }))).toMatchObject({
        type: 'response',
        id: 7,
        result: { ok: false, error: { code: 'MALFORMED_MESSAGE' } },
      });

      const unknown = await roundTrip(ws, req(2, 'sessions.deleteEverything', {}));
      expect(unknown).toMatchObject({
        type: 'response',
        id: 2,
        result: { ok: false, error: { code: 'UNKNOWN_CHANNEL' } },
      });
      const proto = await roundTrip(ws, req(3, '__proto__', {}));
      expect(proto).toMatchObject({ result: { ok: false, error: { code: 'UNKNOWN_CHANNEL' } } });

      const wrongType = await roundTrip(ws, req(4, 'projects.open', { path: 42 }));
      expect(wrongType).toMatchObject({
        type: 'response',
        id: 4,
        result: { ok: false, error: { code: 'INVALID_INPUT' } },
      });
      expect(JSON.stringify(wrongType)).toContain('path');

      const missing = await roundTrip(ws, req(5, 'sessions.rename', { sessionId: 'abc' }));
      expect(missing).toMatchObject({
        result: { ok: false, error: { code: 'INVALID_INPUT', details: [expect.stringContaining('title')] } },
      });

      const extra = await roundTrip(ws, req(6, 'app.info', { sneaky: true }));
      expect(extra).toMatchObject({ result: { ok: false, error: { code: 'INVALID_INPUT' } } });

      const huge = await roundTrip(
        ws,
        req(8, 'sessions.send', { sessionId: 'x', text: 'a'.repeat(10 * 1024 * 1024) }),
      );
      expect(huge).toMatchObject({
        type: 'response',
        id: 8,
        result: { ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } },
      });

      const missingSession = await roundTrip(ws, req(9, 'sessions.get', { sessionId: 'no-such-session' }));
      expect(missingSession).toMatchObject({ result: { ok: false, error: { code: 'NOT_FOUND' } } });

      // Still alive, and still answering.
      expect(ws.readyState).toBe(WebSocket.OPEN);
      const info = await roundTrip(ws, req(10, 'app.info', {}));
      expect(info).toMatchObject({ type: 'response', id: 10, result: { ok: true } });
    } finally {
      ws.close();
      await serve.close();
    }
  });
});
