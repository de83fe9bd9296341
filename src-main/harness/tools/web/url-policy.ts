import { WebFetchError } from './web-errors';

/** Hosts that stay on plain http: a local server has no certificate, and nothing crosses a network. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname.toLowerCase().replace(/\.$/, ''));
}

/**
 * The URL WebFetch will really fetch, or a typed refusal: only http and https (file:, data:,
 * javascript: and the rest are refused), no user name or password in it (they would be sent to the
 * host, and a `https://trusted.com@evil.com` spelling hides the real host from a person approving
 * it), and plain http upgraded to https except for the local machine.
 */
export function normalizeFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch (error) {
    throw new WebFetchError(
      'invalid-url',
      `"${raw}" is not a valid URL: give a full URL such as https://example.com/page`,
      {
        cause: error,
      },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchError(
      'unsupported-scheme',
      `WebFetch fetches http and https URLs only, not ${url.protocol} URLs`,
    );
  if (url.username !== '' || url.password !== '')
    throw new WebFetchError(
      'credentials-in-url',
      'WebFetch refuses URLs with a user name or password in them; fetch the page without credentials',
    );
  if (url.hostname === '') throw new WebFetchError('invalid-url', `"${raw}" names no host`);
  if (url.protocol === 'http:' && !isLocalHost(url.hostname)) url.protocol = 'https:';
  return url;
}

function bareHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
}

/**
 * Whether a redirect stays where permission was given, so it may be followed without asking again:
 * the same host (give or take `www.`), the same port, and the same scheme or http upgraded to https.
 * Anything else goes back to the model, whose next WebFetch of the new URL is judged afresh.
 */
export function isSameSiteRedirect(from: URL, to: URL): boolean {
  if (to.username !== '' || to.password !== '') return false;
  const schemeOk = from.protocol === to.protocol || (from.protocol === 'http:' && to.protocol === 'https:');
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  const portOk =
    port(from) === port(to) || (from.protocol === 'http:' && to.protocol === 'https:' && to.port === '');
  return schemeOk && portOk && bareHost(from.hostname) === bareHost(to.hostname);
}
