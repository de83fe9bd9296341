import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { CONTENT_TYPES, resolveInside, SECURITY_HEADERS } from '../platform/web-security';

/** A file of the renderer build a request names, and whether it may be served without the token. */
export interface StaticTarget {
  file: string;
  /**
   * Files under `assets/` are the build's hashed JS and CSS: the app's code, no secrets, nothing
   * per launch. The page loads them without the token (the token is never sent anywhere but in the
   * page URL and the socket URL), so they are public; everything else needs the token.
   */
  public: boolean;
}

/** Resolves a URL path to a file inside the renderer build, or null if it would leave it. */
export function staticTarget(root: string, urlPath: string): StaticTarget | null {
  const file = resolveInside(root, urlPath === '/' ? '/index.html' : urlPath);
  if (!file) return null;
  // Decided on the resolved file, not the URL: `/assets/..%2findex.html` is the page, not an asset.
  const assets = path.join(root, 'assets') + path.sep;
  return { file, public: file.startsWith(assets) };
}

export async function serveFile(res: ServerResponse, file: string): Promise<boolean> {
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': file.endsWith('index.html') ? 'no-store' : 'private, max-age=3600',
    ...SECURITY_HEADERS,
  });
  res.end(body);
  return true;
}
