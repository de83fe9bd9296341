import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { IpcRouter } from '../ipc/router';
import type { Logger } from '../platform/logger';
import { cookieValue, hostAllowed, newToken, originAllowed, tokenMatches } from './auth';
import { SECURITY_HEADERS } from '../platform/web-security';
import type { EventHub } from '../workspace/event-hub';
import { serveFile } from './static-files';
import { WsTransport } from './ws-transport';

/** What serve mode exposes: the router and event hub of a composed Carapace, and how to stop it. */
export interface ServeBackend {
  router: IpcRouter;
  hub: EventHub;
  shutdown(): Promise<void>;
}

export interface ServeOptions {
  carapace: ServeBackend;
  rendererDir: string;
  port: number;
  host: string;
  logger: Logger;
  /** Fixed token (tests); a fresh random one otherwise. */
  token?: string;
}

export interface ServeHandle {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
  res.end(`${message}\n`);
}

/**
 * Serve mode: the built renderer and the WebSocket transport on one port. Every request needs the
 * per-launch token (in the URL once, then a cookie scoped to this port); sockets must also come
 * from this server's own Origin.
 */
export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const token = options.token ?? newToken();
  const transport = new WsTransport(options.carapace.router, options.carapace.hub, options.logger);
  const sockets = new Set<Socket>();
  let port = 0;
  const cookieName = () => `carapace_token_${port}`;

  const authorized = (req: IncomingMessage, url: URL) =>
    tokenMatches(token, url.searchParams.get('token')) || tokenMatches(token, cookieValue(req, cookieName()));

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://serve.invalid');
    if (!hostAllowed(req, options.host, port)) return refuse(res, 403, 'Forbidden: unexpected Host header.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
    if (!authorized(req, url))
      return refuse(res, 401, 'Unauthorized: open the URL Carapace printed, with its token.');
    const cookie = `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    void serveFile(res, options.rendererDir, url.pathname, { 'set-cookie': cookie }).then((found) => {
      if (!found) refuse(res, 404, 'Not found.');
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://serve.invalid');
    const deny = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== '/ws') return deny(404, 'Not Found');
    if (!hostAllowed(req, options.host, port)) return deny(403, 'Forbidden');
    if (!originAllowed(req)) return deny(403, 'Forbidden');
    if (!authorized(req, url)) return deny(401, 'Unauthorized');
    transport.wss.handleUpgrade(req, socket, head, (ws) => transport.wss.emit('connection', ws, req));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${port}/?token=${token}`;

  return {
    url,
    port,
    token,
    async close() {
      transport.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      await options.carapace.shutdown();
    },
  };
}
