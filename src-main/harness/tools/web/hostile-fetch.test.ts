import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createNetServer, isIPv6, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loopbackName, page, redirect, startWebSite, type Route } from '../../../test-support/web-site';
import { fetchPage } from './fetch-page';
import { addressKind } from './ip-ranges';
import type { Resolve } from './pin-address';
import { normalizeFetchUrl } from './url-policy';
import { WebFetchError } from './web-errors';

/*
 * WebFetch against hostile servers and hostile URLs: what the model asks for is fetched only where the
 * person's permission (a domain) reaches, and what comes back is bounded by its decoded size.
 */

const signal = () => new AbortController().signal;
const limits = { timeoutMs: 20_000, maxBytes: 1024 * 1024, maxRedirects: 5 };

const rebound = await loopbackName();

describe('WebFetch against hostile servers', () => {
  it('a gzip bomb is cut at the byte cap counted after decoding', async () => {
    // 64 MB of zeros, about 64 KB on the wire.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const site = await startWebSite({
      '/bomb': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb),
    });
    const got = await fetchPage(new URL(`${site.url}/bomb`), signal(), limits);
    expect(got.kind).toBe('page');
    if (got.kind === 'page') {
      expect(got.truncated).toBe(true);
      expect(got.bytes).toBe(limits.maxBytes);
      expect(got.text.length).toBe(limits.maxBytes);
    }
  });

  it('a redirect from an allowed site to localhost, 169.254.169.254 or file: is not followed', async () => {
    const inner = await startWebSite({ '/secret': page('secret') });
    const site = await startWebSite({
      '/to-localhost': redirect(`http://localhost:${inner.port}/secret`),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-file': redirect('file:///etc/passwd'),
    });
    for (const [route, target] of [
      ['/to-localhost', `http://localhost:${inner.port}/secret`],
      ['/to-metadata', 'http://169.254.169.254/latest/meta-data/'],
    ] as const) {
      const got = await fetchPage(new URL(`${site.url}${route}`), signal(), limits);
      expect(got).toMatchObject({ kind: 'redirect', redirectUrl: target });
    }
    const file: unknown = await fetchPage(new URL(`${site.url}/to-file`), signal(), limits).catch(
      (e: unknown) => e,
    );
    expect(file).toBeInstanceOf(WebFetchError);
    expect((file as WebFetchError).code).toBe('bad-redirect');
    expect(inner.hits).toEqual([]);
  });

  it('file:, data: and credentials in the URL are refused; plain http to a metadata address is upgraded to https', () => {
    for (const raw of ['file:///etc/passwd', 'data:text/plain,x', 'https://example.com@169.254.169.254/'])
      expect(() => normalizeFetchUrl(raw)).toThrow(WebFetchError);
    // The metadata service speaks plain http only: upgraded, the request cannot reach it.
    expect(normalizeFetchUrl('http://169.254.169.254/latest/meta-data/').protocol).toBe('https:');
    expect(normalizeFetchUrl('http://2130706433/').href).toBe('http://127.0.0.1/');
  });

  it.skipIf(rebound === null)(
    'a name that resolves to this machine is refused before connecting, naming the address',
    async () => {
      const inner = await startWebSite({ '/secret': page('secret') });
      for (const scheme of ['http', 'https']) {
        const error = await refusal(`${scheme}://${rebound}:${inner.port}/secret`);
        expect(error.code).toBe('private-address');
        expect(error.message).toMatch(
          new RegExp(
            `^${rebound} resolves to (127\\.0\\.0\\.1|::1), a loopback address: .*fetch it by its address to ask for it$`,
          ),
        );
      }
      expect(inner.hits).toEqual([]);
    },
  );
});

/** A resolver answering from a script, one answer per call, the last one again; calls are recorded. */
function scriptedResolver(answers: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve: Resolve = (host) => {
    const seen = calls.filter((c) => c === host).length;
    calls.push(host);
    const script = answers[host];
    const answer = script?.[Math.min(seen, script.length - 1)];
    if (!answer) return Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`));
    return Promise.resolve(answer.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }) as const));
  };
  return { resolve, calls };
}

const neverResolve: Resolve = (host) => Promise.reject(new Error(`${host} should not have been resolved`));

async function refusal(url: string, resolve?: Resolve, l = limits): Promise<WebFetchError> {
  const error: unknown = await fetchPage(new URL(url), signal(), l, resolve).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof WebFetchError)) throw new Error(`expected a WebFetchError, got ${String(error)}`);
  return error;
}

/** Every TCP connection attempt this process starts from now until the test ends (address and port). */
function connectionAttempts(): { ip: string; port: number }[] {
  const attempts: { ip: string; port: number }[] = [];
  const onSocket = (message: unknown) =>
    (message as { socket: Socket }).socket.on('connectionAttempt', (ip: string, port: number) =>
      attempts.push({ ip, port }),
    );
  subscribe('net.client.socket', onSocket);
  onTestFinished(() => void unsubscribe('net.client.socket', onSocket));
  return attempts;
}

/** An address of this machine that counts as public (none on most machines: the test is then skipped). */
const publicHere =
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4' && addressKind(i.address) === 'public')?.address ??
  null;

/** A server on every interface recording which of this machine's addresses each request came in on. */
async function everywhereSite(routes: Record<string, Route>) {
  const hits: { path: string; localAddress: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push({ path: at, localAddress: req.socket.localAddress });
    (routes[at] ?? page('not found', 'text/plain', 404))(req, res);
  });
  server.listen(0, '0.0.0.0');
  await once(server, 'listening');
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, hits };
}

describe('WebFetch pins the addresses it checked (DNS rebinding)', () => {
  it('a name answering a public address first and 127.0.0.1 second is connected to the first only', async () => {
    const inner = await startWebSite({ '/secret': page('secret') });
    const attempts = connectionAttempts();
    const { resolve, calls } = scriptedResolver({ 'rebind.test': [['203.0.113.7'], ['127.0.0.1']] });
    // What 203.0.113.7 (TEST-NET-3) does varies by network (nothing, a refusal, a proxy's answer);
    // what matters is that it is the only address connected to, and the name was resolved once.
    await fetchPage(
      new URL(`http://rebind.test:${inner.port}/secret`),
      signal(),
      {
        ...limits,
        timeoutMs: 1500,
      },
      resolve,
    ).catch(() => undefined);
    expect(attempts.filter((a) => a.port === inner.port).map((a) => a.ip)).toEqual(['203.0.113.7']);
    expect(calls).toEqual(['rebind.test']);
    expect(inner.hits).toEqual([]);
  });

  it.skipIf(publicHere === null)(
    'a real connection goes to the pinned public address; the next hop answering 127.0.0.1 is refused',
    async () => {
      const site = await everywhereSite({ '/page': page('hello', 'text/plain'), '/hop': redirect('/page') });
      const one = scriptedResolver({ 'rebind.test': [[publicHere ?? ''], ['127.0.0.1']] });
      const got = await fetchPage(
        new URL(`http://rebind.test:${site.port}/page`),
        signal(),
        limits,
        one.resolve,
      );
      expect(got).toMatchObject({ kind: 'page', text: 'hello' });
      expect(one.calls).toEqual(['rebind.test']);
      expect(site.hits).toEqual([{ path: '/page', localAddress: publicHere }]);

      // Every hop is resolved and checked again: the same-site redirect's second answer is 127.0.0.1.
      const two = scriptedResolver({ 'rebind.test': [[publicHere ?? ''], ['127.0.0.1']] });
      const error = await refusal(`http://rebind.test:${site.port}/hop`, two.resolve);
      expect(error.code).toBe('private-address');
      expect(error.message).toContain('rebind.test resolves to 127.0.0.1, a loopback address');
      expect(two.calls).toEqual(['rebind.test', 'rebind.test']);
      expect(site.hits.map((h) => h.path)).toEqual(['/page', '/hop']);
    },
  );

  it('a name with any private address among its answers is refused, naming that address', async () => {
    const { resolve } = scriptedResolver({
      'mixed.test': [['203.0.113.7', '10.0.0.5']],
      'meta.test': [['169.254.169.254']],
      'nat.test': [['100.64.3.4']],
      'v6.test': [['fd00::1']],
      'mapped.test': [['::ffff:127.0.0.1']],
      'empty.test': [[]],
    });
    const cases: [string, string][] = [
      ['mixed.test', 'resolves to 10.0.0.5, a private address'],
      ['meta.test', 'resolves to 169.254.169.254, a link-local address'],
      ['nat.test', 'resolves to 100.64.3.4, a shared (carrier-grade NAT) address'],
      ['v6.test', 'resolves to fd00::1, a private address'],
      ['mapped.test', 'resolves to ::ffff:127.0.0.1, a loopback address'],
    ];
    for (const [host, words] of cases) {
      const error = await refusal(`https://${host}/`, resolve);
      expect(error.code).toBe('private-address');
      expect(error.message).toBe(
        `${host} ${words}: WebFetch does not follow a name to this machine or a network behind it; fetch it by its address to ask for it`,
      );
    }
    const empty = await refusal('https://empty.test/', resolve);
    expect([empty.code, empty.message]).toEqual([
      'network',
      'Could not fetch https://empty.test/: empty.test resolves to no address',
    ]);
  });

  it('http://localhost:PORT still works, pinned: each hop resolves localhost once, to loopback only', async () => {
    const site = await startWebSite({ '/a': redirect('/b'), '/b': page('<p>local</p>') });
    // The system resolver, as in real use.
    expect(await fetchPage(new URL(`http://localhost:${site.port}/b`), signal(), limits)).toMatchObject({
      kind: 'page',
      text: '<p>local</p>',
    });
    const { resolve, calls } = scriptedResolver({ localhost: [['127.0.0.1'], ['127.0.0.1'], ['10.0.0.5']] });
    const got = await fetchPage(new URL(`http://localhost:${site.port}/a`), signal(), limits, resolve);
    expect(got).toMatchObject({ kind: 'page', url: `http://localhost:${site.port}/b` });
    expect(calls).toEqual(['localhost', 'localhost']);
    // A localhost that resolves away from this machine is not this machine.
    const away = await refusal(`http://localhost:${site.port}/b`, resolve);
    expect(away.code).toBe('private-address');
    expect(away.message).toContain('localhost resolves to 10.0.0.5, a private address, not to this machine');
    expect(site.hits.map((h) => h.path)).toEqual(['/b', '/a', '/b']);
  });

  it('a same-site redirect to a name that resolves privately is refused', async () => {
    const routes: Record<string, Route> = { '/secret': page('secret') };
    const site = await startWebSite(routes);
    routes['/go'] = redirect(`http://www.localhost:${site.port}/secret`);
    // www.localhost is the same site as localhost (give or take www.), but not this machine by name.
    const { resolve, calls } = scriptedResolver({
      localhost: [['127.0.0.1']],
      'www.localhost': [['127.0.0.1']],
    });
    const error = await refusal(`http://localhost:${site.port}/go`, resolve);
    expect(error.code).toBe('private-address');
    expect(error.message).toContain('www.localhost resolves to 127.0.0.1, a loopback address');
    expect(calls).toEqual(['localhost', 'www.localhost']);
    expect(site.hits.map((h) => h.path)).toEqual(['/go']);
  });

  it('IP literals in every spelling are fetched as the address the URL parser makes of them, never resolved', async () => {
    const site = await startWebSite({ '/x': page('x', 'text/plain') });
    for (const spelling of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7f000001']) {
      const url = normalizeFetchUrl(`http://${spelling}:${site.port}/x`);
      expect(url.href).toBe(`http://127.0.0.1:${site.port}/x`);
      expect(await fetchPage(url, signal(), limits, neverResolve)).toMatchObject({ kind: 'page', text: 'x' });
    }
    expect(site.hits).toHaveLength(5);
    // The metadata address as a literal is the person's to approve: it is not resolved, nor refused here.
    expect(normalizeFetchUrl('http://169.254.169.254/latest/meta-data/').hostname).toBe('169.254.169.254');
  });

  it('an IPv4 address spelt as IPv6 is refused with the address to fetch instead', async () => {
    for (const [raw, v4] of [
      ['http://[::ffff:127.0.0.1]:1/', '127.0.0.1'],
      ['http://[::ffff:a9fe:a9fe]/latest/', '169.254.169.254'],
      ['http://[::127.0.0.1]/', '127.0.0.1'],
      ['https://[64:ff9b::10.0.0.5]/', '10.0.0.5'],
    ] as const) {
      const error = await refusal(normalizeFetchUrl(raw).href, neverResolve);
      expect(error.code).toBe('ipv4-as-ipv6');
      expect(error.message).toContain(
        `is ${v4} written as an IPv6 address; fetch it by its IPv4 address (${v4})`,
      );
    }
  });

  it("a resolver that never answers ends at the deadline; the caller's abort while resolving stays an abort", async () => {
    const silent: Resolve = () => new Promise(() => undefined);
    const slow = await refusal('https://slow.test/', silent, { ...limits, timeoutMs: 300 });
    expect(slow.code).toBe('timeout');
    expect(slow.message).toBe('slow.test did not answer within 0.3 s');
    const stop = new AbortController();
    const pending = fetchPage(new URL('https://slow.test/'), stop.signal, limits, silent);
    stop.abort();
    const error: unknown = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(WebFetchError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('over https the TLS handshake names the host (SNI), and an IP literal sends no name', async () => {
    const hellos: Buffer[] = [];
    const tlsPeer = createNetServer((socket) => {
      socket.once('data', (hello: Buffer) => {
        hellos.push(hello);
        socket.destroy();
      });
    });
    tlsPeer.listen(0, '127.0.0.1');
    await once(tlsPeer, 'listening');
    onTestFinished(() => new Promise<void>((resolve) => tlsPeer.close(() => resolve())));
    const port = (tlsPeer.address() as AddressInfo).port;
    const { resolve } = scriptedResolver({ localhost: [['127.0.0.1']] });
    expect((await refusal(`https://localhost:${port}/`, resolve)).code).toBe('network');
    expect((await refusal(`https://127.0.0.1:${port}/`, neverResolve)).code).toBe('network');
    expect(hellos).toHaveLength(2);
    expect(hellos[0]?.includes('localhost')).toBe(true);
    expect(hellos[1]?.includes('127.0.0.1')).toBe(false);
  });
});
