import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { page, redirect, startWebSite } from '../../../test-support/web-site';
import { DEFAULT_FETCH_LIMITS, fetchPage, type FetchedPage, type FetchLimits } from './fetch-page';
import { MAX_MARKDOWN_CHARS, pageMarkdown } from './page-markdown';
import { WebFetchError } from './web-errors';

/*
 * fetchPage against a real HTTP server on 127.0.0.1: redirects followed by hand only within the site,
 * the byte cap, the deadline, content types; and the Markdown the small model gets.
 */

const signal = () => new AbortController().signal;

async function fetched(url: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<FetchedPage> {
  const got = await fetchPage(new URL(url), signal(), limits);
  if (got.kind !== 'page') throw new Error(`expected a page, got a redirect to ${got.redirectUrl}`);
  return got;
}

async function failure(url: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<WebFetchError> {
  const error: unknown = await fetchPage(new URL(url), signal(), limits).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof WebFetchError)) throw new Error(`expected a WebFetchError, got ${String(error)}`);
  return error;
}

describe('fetchPage', () => {
  it('follows redirects within the site and reports where the page came from', async () => {
    const site = await startWebSite({
      '/a': redirect('/b', 301),
      '/b': redirect('/final', 307),
      '/final': page('<p>here</p>'),
    });
    const got = await fetched(`${site.url}/a`);
    expect(got.url).toBe(`${site.url}/final`);
    expect(got.text).toBe('<p>here</p>');
    expect(got.mediaType).toBe('text/html');
    expect(site.hits.map((h) => h.path)).toEqual(['/a', '/b', '/final']);
  });

  it('hands back a redirect to another host without following it', async () => {
    const site = await startWebSite({});
    const other = `http://localhost:${site.port}/elsewhere`;
    const moved = await startWebSite({ '/moved': redirect(other) });
    const got = await fetchPage(new URL(`${moved.url}/moved`), signal());
    expect(got).toEqual({
      kind: 'redirect',
      url: `${moved.url}/moved`,
      redirectUrl: other,
      status: 302,
      statusText: 'Found',
    });
    expect(site.hits).toEqual([]);
  });

  it('gives up on a redirect loop, and refuses redirects to other schemes', async () => {
    const site = await startWebSite({
      '/loop': redirect('/loop'),
      '/file': redirect('file:///etc/passwd'),
      '/bare': (_req, res) => res.writeHead(302).end(),
    });
    expect((await failure(`${site.url}/loop`)).code).toBe('too-many-redirects');
    expect(site.hits.filter((h) => h.path === '/loop')).toHaveLength(DEFAULT_FETCH_LIMITS.maxRedirects + 1);
    expect((await failure(`${site.url}/file`)).code).toBe('bad-redirect');
    expect((await failure(`${site.url}/bare`)).message).toContain('without a Location');
  });

  it('stops reading a never-ending body at the byte cap', async () => {
    const site = await startWebSite({
      '/forever': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'y\n'.repeat(8192);
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        res.on('close', () => res.off('drain', pump));
        pump();
      },
    });
    const got = await fetched(`${site.url}/forever`, { ...DEFAULT_FETCH_LIMITS, maxBytes: 1024 * 1024 });
    expect(got.truncated).toBe(true);
    expect(got.bytes).toBe(1024 * 1024);
    expect(got.text).toHaveLength(1024 * 1024);
    expect(pageMarkdown(got).notes[0]).toContain('only its beginning was read');
  });

  it('times out on a server that never answers, and on one that stalls mid-body', async () => {
    const site = await startWebSite({
      '/silent': () => undefined,
      '/stall': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('start');
      },
    });
    const limits = { ...DEFAULT_FETCH_LIMITS, timeoutMs: 300 };
    const silent = await failure(`${site.url}/silent`, limits);
    expect(silent.code).toBe('timeout');
    expect(silent.message).toContain('did not answer within 0.3 s');
    expect((await failure(`${site.url}/stall`, limits)).code).toBe('timeout');
  });

  it('an abort by the caller stays an abort, not a timeout', async () => {
    const site = await startWebSite({ '/silent': () => undefined });
    const stop = new AbortController();
    const pending = fetchPage(new URL(`${site.url}/silent`), stop.signal);
    stop.abort();
    const error: unknown = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(WebFetchError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('refuses binary content, and reports HTTP errors and unreachable hosts', async () => {
    const site = await startWebSite({
      '/img': page(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'image/png'),
      '/zip': page(Buffer.alloc(10), 'application/octet-stream'),
      '/gone': page('gone', 'text/plain', 410),
    });
    const img = await failure(`${site.url}/img`);
    expect(img.code).toBe('binary-content');
    expect(img.message).toContain('image/png');
    expect((await failure(`${site.url}/zip`)).code).toBe('binary-content');
    const gone = await failure(`${site.url}/gone`);
    expect(gone.code).toBe('http-status');
    expect(gone.message).toContain('410');
    // A port nothing listens on: taken from a server that is closed again at once.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const refused = await failure(`http://127.0.0.1:${freePort}/x`);
    expect(refused.code).toBe('network');
    expect(refused.message).toContain('ECONNREFUSED');
  });

  it('decodes gzip, deflate and br bodies, and a body encoded twice', async () => {
    const text = '<p>compressed</p>';
    const site = await startWebSite({
      '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(text)),
      '/deflate': (_req, res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(text)),
      '/br': (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync(text)),
      '/twice': (_req, res) =>
        res.writeHead(200, { 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync(text))),
      '/corrupt': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all'),
    });
    for (const route of ['/gzip', '/deflate', '/br', '/twice'])
      expect([route, (await fetched(`${site.url}${route}`)).text]).toEqual([route, text]);
    const corrupt = await failure(`${site.url}/corrupt`);
    expect(corrupt.code).toBe('network');
    expect(corrupt.message).toContain('incorrect header check');
  });

  it('reads JSON and Markdown as they are, and decodes the charset the server names', async () => {
    const site = await startWebSite({
      '/data.json': page('{"answer": 42}', 'application/json'),
      '/doc.md': page('# Title\n\n*as is*', 'text/markdown'),
      '/latin1': page(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=iso-8859-1'),
    });
    const json = await fetched(`${site.url}/data.json`);
    expect(pageMarkdown(json).markdown).toBe('{"answer": 42}');
    expect(pageMarkdown(await fetched(`${site.url}/doc.md`)).markdown).toBe('# Title\n\n*as is*');
    expect((await fetched(`${site.url}/latin1`)).text).toBe('café');
  });
});

describe('pageMarkdown', () => {
  const html = (text: string, mediaType = 'text/html'): FetchedPage => ({
    kind: 'page',
    url: 'https://example.com/',
    status: 200,
    mediaType,
    text,
    bytes: text.length,
    truncated: false,
  });

  it('turns HTML into Markdown without scripts, styles or the head', () => {
    const { markdown, notes } = pageMarkdown(
      html(
        '<html><head><title>T</title><style>p{color:red}</style></head><body><script>steal()</script>' +
          '<h1>Docs</h1><p>The answer is <strong>42</strong>, see <a href="/more">more</a>.</p>' +
          '<ul><li>one</li></ul><pre><code>x = 1</code></pre></body></html>',
      ),
    );
    expect(markdown).toContain('# Docs');
    expect(markdown).toContain('The answer is **42**, see [more](/more).');
    expect(markdown).toContain('-   one');
    expect(markdown).toContain('```\nx = 1\n```');
    expect(markdown).not.toMatch(/steal|color:red|<title>/);
    expect(notes).toEqual([]);
  });

  it('sniffs HTML a server sent without a type, and leaves plain text alone', () => {
    expect(pageMarkdown(html('<!DOCTYPE html><h2>Hi</h2>', '')).markdown).toBe('## Hi');
    expect(pageMarkdown(html('<b>not html</b>', 'text/plain')).markdown).toBe('<b>not html</b>');
  });

  it('cuts a huge page at the limit and says so', () => {
    const { markdown, notes } = pageMarkdown(html('z'.repeat(MAX_MARKDOWN_CHARS + 5), 'text/plain'));
    expect(markdown).toHaveLength(MAX_MARKDOWN_CHARS);
    expect(notes[0]).toBe('The content was cut at 100,000 of its 100,005 characters.');
  });
});
