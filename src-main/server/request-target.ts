/**
 * Parses a request's target. Only origin-form (`/path?query`) is ours to answer: absolute-form
 * (`http://host/…`, meant for proxies), `*` and anything `URL` cannot parse get null, which the
 * server answers with 400. `new URL` throws on targets Node's HTTP parser lets through (`//[`,
 * `http://[`), and a throw in a request handler would take the whole server down.
 */
export function parseRequestTarget(target: string | undefined): URL | null {
  if (!target?.startsWith('/')) return null;
  try {
    // Concatenated rather than resolved against a base, so `//host/path` stays a path, not a host.
    return new URL(`http://serve.invalid${target}`);
  } catch {
    return null;
  }
}

/** The one token a request carries in its query; a missing or repeated parameter is no token. */
export function queryToken(url: URL): string | null {
  const values = url.searchParams.getAll('token');
  return values.length === 1 ? (values[0] ?? null) : null;
}
