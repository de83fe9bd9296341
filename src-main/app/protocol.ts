import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { protocol } from 'electron';
import { resolveInside, SECURITY_HEADERS } from '../server/static-files';
import { APP_SCHEME } from './ipc-channels';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

/** Must run before `app.ready`: the scheme behaves like https (secure, standard origin, fetch allowed). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves the built renderer from `carapace://app/…`, never a byte from outside `rendererDir`. */
export function handleAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = resolveInside(rendererDir, url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...SECURITY_HEADERS },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
