import { request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
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

/**
 * Sends raw bytes (what an HTTP client would refuse to send) and resolves with the status line of
 * the answer, or rejects if the connection dies without one (the server crashed or dropped it).
 */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = data.split('\r\n')[0] ?? '';
      if (status.startsWith('HTTP/1.1 ')) resolve(status);
      else reject(new Error(`no answer to ${JSON.stringify(text.split('\r\n')[0])}`));
    });
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
  it('serves the page only with the token in its URL, the build assets without it, and never a cookie', async () => {
    const serve = await serveForTest();
    try {
      const responses = [];
      for (const path of ['/', '/index.html', '/?token=wrong', `/?token=${'0'.repeat(64)}`, '/nope']) {
        const res = await get(serve.port, path);
        expect(res.status, path).toBe(401);
        responses.push(res);
      }
      // A repeated parameter is no token, even when one of the copies is right.
      expect((await get(serve.port, `/?token=x&token=${serve.token}`)).status).toBe(401);
      // The page by a path that starts like an asset is still the page.
      expect((await get(serve.port, '/assets/..%2findex.html')).status).toBe(401);
      expect((await get(serve.port, '/assets/%2e%2e/index.html')).status).toBe(401);

      const page = await get(serve.port, `/?token=${serve.token}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Carapace</title>');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      responses.push(page);
      // The hashed build assets hold no secret and are served without the token.
      const asset = await get(serve.port, '/assets/app.js');
      expect(asset.status).toBe(200);
      expect(asset.body).toContain('console.log');
      responses.push(asset);
      const missing = await get(serve.port, `/nope?token=${serve.token}`);
      expect(missing.status).toBe(404);
      responses.push(missing);
      expect((await get(serve.port, `/../../etc/passwd?token=${serve.token}`)).status).toBe(404);
      expect((await get(serve.port, `/%2e%2e/%2e%2e/etc/passwd?token=${serve.token}`)).status).toBe(404);

      // Cookies are not separated by port: one holding the token would reach every server on
      // 127.0.0.1. No answer may set one, nor carry the token anywhere in its headers.
      for (const res of responses) {
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(JSON.stringify(res.headers)).not.toContain(serve.token);
      }
    } finally {
      await serve.close();
    }
  });

  it('answers malformed cookies, queries, encodings and request targets with 400/401/404 and keeps serving', async () => {
    const serve = await serveForTest();
    const host = `127.0.0.1:${serve.port}`;
    const req = (target: string, headers = '') =>
      raw(serve.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${headers}Connection: close\r\n\r\n`);
    const upgrade = (target: string, headers = '') =>
      req(
        target,
        `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${headers}`,
      );
    const badCookie = `Cookie: carapace_token_${serve.port}=%\r\n`;
    try {
      // The cookie that used to crash the server (decodeURIComponent threw), with and without the token.
      expect(await req('/', badCookie)).toBe('HTTP/1.1 401 Unauthorized');
      expect(await req(`/?token=${serve.token}`, badCookie)).toBe('HTTP/1.1 200 OK');
      expect(await req('/assets/app.js', badCookie)).toBe('HTTP/1.1 200 OK');
      expect(await upgrade('/ws', badCookie)).toBe('HTTP/1.1 401 Unauthorized');
      // A cookie holding the right token is no token: only the URL carries it.
      expect(await req('/', `Cookie: carapace_token_${serve.port}=${serve.token}\r\n`)).toBe(
        'HTTP/1.1 401 Unauthorized',
      );
      // Targets Node's parser lets through but `new URL` throws on (this one crashed it too).
      expect(await req('//[')).toBe('HTTP/1.1 401 Unauthorized');
      expect(await req(`//[?token=${serve.token}`)).toBe('HTTP/1.1 404 Not Found');
      expect(await req('http://[')).toBe('HTTP/1.1 400 Bad Request');
      expect(await req(`http://${host}/?token=${serve.token}`)).toBe('HTTP/1.1 400 Bad Request');
      expect(await req('*')).toBe('HTTP/1.1 400 Bad Request');
      expect(await upgrade('//[')).toBe('HTTP/1.1 404 Not Found');
      expect(await upgrade('http://[')).toBe('HTTP/1.1 400 Bad Request');
      // Broken percent-encoding in the query and the path.
      expect(await req('/?token=%')).toBe('HTTP/1.1 401 Unauthorized');
      expect(await req('/?token=%E0%A4%A')).toBe('HTTP/1.1 401 Unauthorized');
      expect(await req(`/%?token=${serve.token}`)).toBe('HTTP/1.1 404 Not Found');
      expect(await req('/assets/%')).toBe('HTTP/1.1 401 Unauthorized');
      expect(await req(`/a%00b?token=${serve.token}`)).toBe('HTTP/1.1 404 Not Found');
      expect(await upgrade('/ws?token=%')).toBe('HTTP/1.1 401 Unauthorized');
      // Headers Node's own parser refuses.
      expect(await raw(serve.port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n')).toBe(
        'HTTP/1.1 400 Bad Request',
      );
      expect(await raw(serve.port, 'NOT HTTP AT ALL\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
      // No Host at all (HTTP/1.0).
      expect(await raw(serve.port, `GET /?token=${serve.token} HTTP/1.0\r\n\r\n`)).toBe(
        'HTTP/1.1 403 Forbidden',
      );

      // Still serving: the page, and a socket that answers a request.
      expect((await get(serve.port, `/?token=${serve.token}`)).status).toBe(200);
      const ws = await connect(`ws://${host}/ws?token=${serve.token}`, {
        origin: `http://${host}`,
        cookie: `carapace_token_${serve.port}=%`,
      });
      expect(ws).toBeInstanceOf(WebSocket);
      const frame = await roundTrip(
        ws as WebSocket,
        JSON.stringify({ type: 'request', id: 1, channel: 'app.info', input: {} }),
      );
      expect(frame).toMatchObject({ type: 'response', id: 1, result: { ok: true } });
      (ws as WebSocket).close();
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
