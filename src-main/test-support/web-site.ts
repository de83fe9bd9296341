import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { onTestFinished } from 'vitest';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A real HTTP server on 127.0.0.1 for WebFetch tests: each path answers with its route, an unknown
 * one with 404. Every request is recorded (path and Host), so a test can tell a page was never
 * fetched. Closed when the test ends, open connections (a never-ending body) included.
 */
export async function startWebSite(routes: Record<string, Route>) {
  const hits: { path: string; host: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push({ path: at, host: req.headers.host });
    const route = routes[at];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    port,
    /** `http://127.0.0.1:<port>`; the same server is `http://localhost:<port>` under another name. */
    url: `http://127.0.0.1:${port}`,
    hits,
  };
}

/** A route answering with a body of the given type. */
export function page(body: string | Buffer, contentType = 'text/html; charset=utf-8', status = 200): Route {
  return (_req, res) => res.writeHead(status, { 'content-type': contentType }).end(body);
}

/** A route redirecting to `location` (relative or absolute). */
export function redirect(location: string, status = 302): Route {
  return (_req, res) => res.writeHead(status, { location }).end();
}

/**
 * A name other than localhost that this machine resolves to loopback only (its own hostname), or
 * null: a "public-looking" name a WebFetch must still treat as this machine.
 */
export async function loopbackName(): Promise<string | null> {
  const name = hostname();
  if (name === 'localhost') return null;
  const all = await lookup(name, { all: true }).catch(() => []);
  return all.length > 0 && all.every((a) => a.address === '127.0.0.1' || a.address === '::1') ? name : null;
}
