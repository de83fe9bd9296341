import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pinHost, systemResolve, type PinnedHost, type Resolve } from './pin-address';
import { isLocalHost, isSameSiteRedirect } from './url-policy';
import { WebFetchError } from './web-errors';

export interface FetchLimits {
  /** For the whole fetch, redirects and body included. */
  timeoutMs: number;
  /** Bytes of the body read, counted after decoding (gzip bombs); past this the rest is left unread. */
  maxBytes: number;
  /** Same-site redirects followed before giving up. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
};

/** A fetched body, decoded to text. */
export interface FetchedPage {
  kind: 'page';
  /** Where the body came from (after same-site redirects). */
  url: string;
  status: number;
  /** The media type without parameters, lower-case (`text/html`); empty when the server named none. */
  mediaType: string;
  text: string;
  bytes: number;
  /** The body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
}

/** A redirect to another site: not followed, it goes back to the model (and to permission). */
export interface CrossSiteRedirect {
  kind: 'redirect';
  url: string;
  redirectUrl: string;
  status: number;
  statusText: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Media types read as text; anything else (images, archives, PDFs, octet-stream) is refused. */
function isTextual(mediaType: string): boolean {
  return (
    mediaType === '' ||
    mediaType.startsWith('text/') ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(mediaType) ||
    mediaType === 'application/javascript' ||
    mediaType === 'application/ecmascript' ||
    mediaType === 'application/x-www-form-urlencoded'
  );
}

function decoderFor(contentType: string): TextDecoder {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    // An unknown label: UTF-8 is what most pages really are.
    return new TextDecoder('utf-8');
  }
}

/**
 * A `lookup` that answers with the addresses pinHost checked, whatever the name: the connection goes
 * to one of them and the name is never resolved a second time (a rebinding answer is never asked for).
 * Node calls it with `all` when it tries several addresses in turn (autoSelectFamily).
 */
function pinnedLookup(pinned: PinnedHost): LookupFunction {
  return (_hostname, options, callback) => {
    const first = pinned.addresses[0];
    if (options.all) callback(null, pinned.addresses);
    else if (first) callback(null, first.address, first.family);
    else callback(new Error(`${pinned.host} has no address`), '', 4);
  };
}

const HEADERS = {
  accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'Carapace-WebFetch/1.0',
};

/** One GET to the pinned addresses; resolves at the response's head. TLS checks the certificate for the name. */
function get(url: URL, pinned: PinnedHost, signal: AbortSignal): Promise<IncomingMessage> {
  const tls = url.protocol === 'https:';
  const literal = pinned.addresses.length === 1 && pinned.addresses[0]?.address === pinned.host;
  return new Promise((resolve, reject) => {
    const req = (tls ? httpsRequest : httpRequest)({
      method: 'GET',
      host: pinned.host,
      port: url.port === '' ? (tls ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...HEADERS, host: url.host },
      // A connection of its own each time: a pooled one could have been made for another answer.
      agent: false,
      lookup: pinnedLookup(pinned),
      // SNI and the certificate's name are the name asked for (an IP literal sends no SNI).
      ...(tls && !literal ? { servername: pinned.host } : {}),
      signal,
    });
    // Kept for the whole exchange: an error after the head reaches the body's reader, not the process.
    req.on('error', reject);
    req.on('response', resolve);
    req.end();
  });
}

/**
 * The body as sent, decoded (gzip, deflate, br, in the order applied) so the byte cap counts what
 * is read, not what crossed the wire. An unknown coding is read as it is. `parts` are every stream
 * of the chain, to close them all when reading stops early.
 */
function decodedBody(response: IncomingMessage): { body: Readable; parts: Readable[] } {
  const codings = (response.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  const parts: Readable[] = [response];
  let body: Readable = response;
  for (const coding of codings) {
    const decoder: Transform | null =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip()
        : coding === 'deflate'
          ? createInflate()
          : coding === 'br'
            ? createBrotliDecompress()
            : null;
    if (!decoder) continue;
    // pipe() does not carry errors on: a reset connection must fail the read, not stall it.
    body.on('error', (error) => decoder.destroy(error));
    body = body.pipe(decoder);
    parts.push(decoder);
  }
  return { body, parts };
}

/**
 * Fetches `start` in this process with Node's http/https: each hop's host is resolved once and checked
 * (pinHost) and the request connects only to the addresses checked. Redirects are followed by hand and
 * only within the same site (isSameSiteRedirect), every hop checked again; one to another site is
 * returned, not followed. The whole fetch has a deadline and the body a byte cap, so a server that never
 * answers, or answers forever, ends. Failures are WebFetchErrors with a code; the caller's abort stays
 * an abort.
 */
export async function fetchPage(
  start: URL,
  signal: AbortSignal,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
  resolve: Resolve = systemResolve,
): Promise<FetchedPage | CrossSiteRedirect> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const at = (pinned: PinnedHost | null) =>
    pinned && pinned.addresses.some((a) => a.address !== pinned.host)
      ? ` (at ${pinned.addresses.map((a) => a.address).join(', ')})`
      : '';
  const failed = (error: unknown, url: URL, pinned: PinnedHost | null): never => {
    if (error instanceof WebFetchError) throw error;
    if (signal.aborted)
      throw error instanceof Error && error.name === 'AbortError'
        ? error
        : new DOMException('This operation was aborted', 'AbortError');
    if (deadline.aborted)
      throw new WebFetchError(
        'timeout',
        `${url.host}${at(pinned)} did not answer within ${limits.timeoutMs / 1000} s`,
        { cause: error },
      );
    throw new WebFetchError(
      'network',
      `Could not fetch ${url.href}${at(pinned)}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  };

  let url = start;
  for (let redirects = 0; ; redirects++) {
    let pinned: PinnedHost | null = null;
    let response: IncomingMessage;
    try {
      pinned = await pinHost(url, resolve, both);
      response = await get(url, pinned, both);
    } catch (error) {
      return failed(error, url, pinned);
    }
    const status = response.statusCode ?? 0;
    const statusText = response.statusMessage ?? '';
    if (REDIRECT_STATUSES.has(status)) {
      response.destroy();
      const location = response.headers.location;
      if (location === undefined)
        throw new WebFetchError('bad-redirect', `${url.host} answered ${status} without a Location`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch (error) {
        throw new WebFetchError('bad-redirect', `${url.host} redirected to an invalid URL: ${location}`, {
          cause: error,
        });
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw new WebFetchError(
          'bad-redirect',
          `${url.host} redirected to a ${next.protocol} URL, which is not fetched`,
        );
      if (!isSameSiteRedirect(url, next))
        return {
          kind: 'redirect',
          url: url.href,
          redirectUrl: next.href,
          status,
          statusText,
        };
      if (redirects >= limits.maxRedirects)
        throw new WebFetchError(
          'too-many-redirects',
          `${start.href} redirected more than ${limits.maxRedirects} times`,
        );
      if (next.protocol === 'http:' && !isLocalHost(next.hostname)) next.protocol = 'https:';
      url = next;
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new WebFetchError(
        'http-status',
        `${url.href} answered ${status}${statusText ? ` ${statusText}` : ''}`,
      );
    }
    const contentType = response.headers['content-type'] ?? '';
    const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    if (!isTextual(mediaType)) {
      response.destroy();
      throw new WebFetchError(
        'binary-content',
        `${url.href} is ${mediaType} content, which WebFetch does not read (it reads HTML, text, Markdown and JSON)`,
      );
    }
    const body = await readCapped(response, limits.maxBytes).catch((error: unknown) =>
      failed(error, url, pinned),
    );
    return {
      kind: 'page',
      url: url.href,
      status,
      mediaType,
      text: decoderFor(contentType).decode(body.bytes),
      bytes: body.bytes.byteLength,
      truncated: body.truncated,
    };
  }
}

/** Reads at most `max` decoded bytes of the body, then stops reading (a never-ending body ends here). */
async function readCapped(
  response: IncomingMessage,
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const { body, parts } = decodedBody(response);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of body) {
      const value = chunk as Buffer;
      if (total + value.byteLength > max) {
        chunks.push(value.subarray(0, max - total));
        total = max;
        truncated = true;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    // Leaving early (the cap, an error) closes the connection and any decoder with it.
    for (const part of parts) part.destroy();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, truncated };
}
