import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { IpcRouter } from '../ipc/router';
import type { Logger } from '../platform/logger';
import { hostAllowed, newToken, originAllowed, tokenMatches } from './auth';
import { parseRequestTarget, queryToken } from './request-target';
import { SECURITY_HEADERS } from '../platform/web-security';
import type { EventHub } from '../workspace/event-hub';
import { serveFile, staticTarget } from './static-files';
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
 * Serve mode: the built renderer and the WebSocket transport on one port. The page and the socket
 * need the per-launch token, which travels only in their URLs (`/?token=…`, `/ws?token=…`): never in
 * a cookie, because cookies are not separated by port and every other server on 127.0.0.1 would
 * receive it. The build's hashed assets are public (see staticTarget). Sockets must also come from
 * this server's own Origin, and every request must name this server as its Host.
 */
export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const token = options.token ?? newToken();
  const transport = new WsTransport(options.carapace.router, options.carapace.hub, options.logger);
  const sockets = new Set<Socket>();
  let port = 0;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hostAllowed(req, options.host, port)) return refuse(res, 403, 'Forbidden: unexpected Host header.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
    const url = parseRequestTarget(req.url);
    if (!url) return refuse(res, 400, 'Bad request: the request target is not a path.');
    const target = staticTarget(options.rendererDir, url.pathname);
    if (!target?.public && !tokenMatches(token, queryToken(url)))
      return refuse(res, 401, 'Unauthorized: open the URL Carapace printed, with its token.');
    if (!target) return refuse(res, 404, 'Not found.');
    serveFile(res, target.file).then(
      (found) => {
        if (!found) refuse(res, 404, 'Not found.');
      },
      (error: unknown) => failed(res, error),
    );
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node takes its own error listener off an upgraded socket: a client reset before we answer
    // would otherwise be an unhandled 'error' event.
    socket.on('error', () => socket.destroy());
    const deny = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const url = parseRequestTarget(req.url);
    if (!url) return deny(400, 'Bad Request');
    if (url.pathname !== '/ws') return deny(404, 'Not Found');
    if (!hostAllowed(req, options.host, port)) return deny(403, 'Forbidden');
    if (!originAllowed(req)) return deny(403, 'Forbidden');
    if (!tokenMatches(token, queryToken(url))) return deny(401, 'Unauthorized');
    transport.wss.handleUpgrade(req, socket, head, (ws) => transport.wss.emit('connection', ws, req));
  };

  // Whatever a request holds, it gets an answer and the server keeps serving: a throw escaping a
  // handler would end the process, and with it every session.
  const failed = (res: ServerResponse, error: unknown): void => {
    options.logger.warn(`serve: request failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!res.headersSent) refuse(res, 500, 'Internal error.');
    else res.destroy();
  };
  const server = createServer((req, res) => {
    try {
      onRequest(req, res);
    } catch (error) {
      failed(res, error);
    }
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      onUpgrade(req, socket, head);
    } catch (error) {
      options.logger.warn(`serve: upgrade failed: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    }
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
