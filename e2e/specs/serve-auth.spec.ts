import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { expect, newSessionTab, test } from '../fixtures/test';

/** Sends raw bytes to the served process and resolves with the status line of its answer. */
function rawStatus(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(data.split('\r\n')[0] ?? ''));
  });
}

test('the token never reaches another server on 127.0.0.1; page and socket work with it, through a reload', async ({
  app: page,
  serve,
}) => {
  // Another local server, as any dev server or hostile page on another port would be.
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const other = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>other</title><img src="/pixel.png">');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
  try {
    // Control: the socket works (a new session is a request over it), and again after a reload.
    await newSessionTab(page);
    await page.reload();
    await expect(page.getByRole('tab')).toHaveCount(1);
    await newSessionTab(page);
    expect(page.url()).toContain(`token=${serve.token}`);

    // Cookies are not separated by port: the browser holds none for the workspace.
    expect(await page.context().cookies()).toEqual([]);

    // Leave for the other server the way a link would; it loads a subresource of its own too.
    await page.evaluate((url) => {
      window.location.href = url;
    }, otherUrl);
    await expect(page).toHaveTitle('other');
    await expect.poll(() => seen.map((s) => s.url)).toEqual(expect.arrayContaining(['/', '/pixel.png']));
    // The navigation from our page carries no Referer (it would hold the token) ...
    expect(seen[0]?.headers.referer).toBeUndefined();
    // ... and no request to that port carries a cookie or the token.
    for (const request of seen) {
      expect(request.headers.cookie).toBeUndefined();
      expect(JSON.stringify(request)).not.toContain(serve.token);
    }

    // Without the token in its URL, the page is refused.
    const refused = await page.goto(`${serve.origin}/`);
    expect(refused?.status()).toBe(401);
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test('`carapace serve` answers a malformed token cookie and request target, and keeps serving', async ({
  page,
  serve,
}) => {
  const port = Number(new URL(serve.origin).port);
  const head = `Host: 127.0.0.1:${port}\r\nConnection: close\r\n`;
  const badCookie = `Cookie: carapace_token_${port}=%\r\n`;
  // Each of these ended the process before (decodeURIComponent / new URL threw in the handler).
  expect(await rawStatus(port, `GET / HTTP/1.1\r\n${head}${badCookie}\r\n`)).toBe(
    'HTTP/1.1 401 Unauthorized',
  );
  expect(await rawStatus(port, `GET /?token=${serve.token} HTTP/1.1\r\n${head}${badCookie}\r\n`)).toBe(
    'HTTP/1.1 200 OK',
  );
  expect(await rawStatus(port, `GET http://[ HTTP/1.1\r\n${head}\r\n`)).toBe('HTTP/1.1 400 Bad Request');
  expect(
    await rawStatus(
      port,
      `GET /ws HTTP/1.1\r\n${head.replace('close', 'Upgrade')}Upgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${badCookie}\r\n`,
    ),
  ).toBe('HTTP/1.1 401 Unauthorized');
  expect(serve.child.exitCode).toBeNull();

  // Still the whole workspace: page, assets and socket.
  await page.goto(serve.url);
  await newSessionTab(page);
});
