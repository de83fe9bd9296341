import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Compares in constant time, so the token cannot be guessed byte by byte from response timings. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host);
}

/**
 * The Host header must name this server on loopback (when bound there): a page on another origin that
 * rebinds its DNS name to 127.0.0.1 then cannot reach us even before the token check.
 */
export function hostAllowed(req: IncomingMessage, boundHost: string, port: number): boolean {
  if (!isLoopbackHost(boundHost)) return true;
  const host = req.headers.host;
  if (!host) return false;
  return ['127.0.0.1', 'localhost', '[::1]'].some((h) => host === `${h}:${port}`);
}

/**
 * A browser always sends Origin on a WebSocket handshake; it must be this server's own origin.
 * A client that is not a browser sends none, and still needs the token.
 */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === `http://${req.headers.host ?? ''}`;
}
