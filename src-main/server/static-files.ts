import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { CONTENT_TYPES, resolveInside, SECURITY_HEADERS } from '../platform/web-security';

export async function serveFile(
  res: ServerResponse,
  root: string,
  urlPath: string,
  extraHeaders: Record<string, string> = {},
): Promise<boolean> {
  const file = resolveInside(root, urlPath === '/' ? '/index.html' : urlPath);
  if (!file) return false;
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
    ...extraHeaders,
  });
  res.end(body);
  return true;
}
