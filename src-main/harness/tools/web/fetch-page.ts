import { isLocalHost, isSameSiteRedirect } from './url-policy';
import { WebFetchError } from './web-errors';

export interface FetchLimits {
  /** For the whole fetch, redirects and body included. */
  timeoutMs: number;
  /** Raw bytes read from the body; past this the rest is left unread. */
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
 * Fetches `start` in this process with Node's fetch: redirects are followed by hand and only within
 * the same site (isSameSiteRedirect); one to another site is returned, not followed. The whole fetch
 * has a deadline and the body a byte cap, so a server that never answers, or answers forever, ends.
 * Failures are WebFetchErrors with a code; the caller's abort stays an abort.
 */
export async function fetchPage(
  start: URL,
  signal: AbortSignal,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
): Promise<FetchedPage | CrossSiteRedirect> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const failed = (error: unknown, url: URL): never => {
    if (signal.aborted) throw error;
    if (deadline.aborted)
      throw new WebFetchError('timeout', `${url.host} did not answer within ${limits.timeoutMs / 1000} s`, {
        cause: error,
      });
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new WebFetchError('network', `Could not fetch ${url.href}: ${cause ?? (error as Error).message}`, {
      cause: error,
    });
  };

  let url = start;
  for (let redirects = 0; ; redirects++) {
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal: both,
        headers: {
          accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5',
          'user-agent': 'Carapace-WebFetch/1.0',
        },
      });
    } catch (error) {
      return failed(error, url);
    }
    if (REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      if (location === null)
        throw new WebFetchError('bad-redirect', `${url.host} answered ${response.status} without a Location`);
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
          status: response.status,
          statusText: response.statusText,
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
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new WebFetchError(
        'http-status',
        `${url.href} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    if (!isTextual(mediaType)) {
      await response.body?.cancel().catch(() => undefined);
      throw new WebFetchError(
        'binary-content',
        `${url.href} is ${mediaType} content, which WebFetch does not read (it reads HTML, text, Markdown and JSON)`,
      );
    }
    const body = await readCapped(response, limits.maxBytes).catch((error: unknown) => failed(error, url));
    return {
      kind: 'page',
      url: url.href,
      status: response.status,
      mediaType,
      text: decoderFor(contentType).decode(body.bytes),
      bytes: body.bytes.byteLength,
      truncated: body.truncated,
    };
  }
}

/** Reads at most `max` bytes of the body, then stops reading (a never-ending body ends here). */
async function readCapped(
  response: Response,
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > max) {
      chunks.push(value.subarray(0, max - total));
      total = max;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, truncated };
}
