import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { protocol } from 'electron';
import { CONTENT_TYPES, resolveInside, SECURITY_HEADERS } from '../platform/web-security';
import { APP_SCHEME } from './ipc-channels';

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
        headers: {
          'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
          ...SECURITY_HEADERS,
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
