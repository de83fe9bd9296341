import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { page, redirect, startWebSite } from '../../../test-support/web-site';
import { fetchPage } from './fetch-page';
import { normalizeFetchUrl } from './url-policy';
import { WebFetchError } from './web-errors';

/*
 * WebFetch against hostile servers and hostile URLs: what the model asks for is fetched only where the
 * person's permission (a domain) reaches, and what comes back is bounded by its decoded size.
 */

const signal = () => new AbortController().signal;
const limits = { timeoutMs: 20_000, maxBytes: 1024 * 1024, maxRedirects: 5 };

/** A name other than localhost that this machine resolves to a loopback address (its own hostname). */
async function loopbackName(): Promise<string | null> {
  const name = hostname();
  if (name === 'localhost') return null;
  const all = await lookup(name, { all: true }).catch(() => []);
  return all.length > 0 && all.every((a) => a.address === '127.0.0.1' || a.address === '::1') ? name : null;
}
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
    'a name that resolves to this machine is fetched over https only, so a plain-http local server never answers it',
    async () => {
      const inner = await startWebSite({ '/secret': page('secret') });
      const url = normalizeFetchUrl(`http://${rebound}:${inner.port}/secret`);
      expect(url.protocol).toBe('https:');
      const error: unknown = await fetchPage(url, signal(), limits).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebFetchError);
      expect((error as WebFetchError).code).toBe('network');
      // The TLS handshake failed against the plain server: no request reached its routes.
      expect(inner.hits).toEqual([]);
    },
  );
});
