import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { IpcErrorData } from '@shared/domain/errors';
import { MAX_REQUEST_BYTES } from '@shared/ipc/contract';
import { RequestFrame, type ServerFrame } from '@shared/ipc/wire';
import { payloadTooLarge, type IpcRouter } from '../ipc/router';
import type { Logger } from '../platform/logger';
import type { EventHub } from '../workspace/event-hub';

/** Frames above this close the socket (ws's own limit); between MAX_REQUEST_BYTES and this, a typed error. */
const HARD_FRAME_LIMIT = 32 * 1024 * 1024;
/** A client this far behind on events is too slow to keep; it reconnects and refetches. */
const MAX_BUFFERED = 64 * 1024 * 1024;

function send(ws: WebSocket, frame: ServerFrame): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
}

function frameId(data: unknown): number | null {
  if (typeof data === 'object' && data !== null && 'id' in data) {
    const id = data.id;
    if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return id;
  }
  return null;
}

function reply(ws: WebSocket, id: number | null, error: IpcErrorData): void {
  if (id === null) send(ws, { type: 'protocol-error', error });
  else send(ws, { type: 'response', id, result: { ok: false, error } });
}

/**
 * The serve-mode transport: the same contract as Electron IPC, as JSON frames over a WebSocket.
 * Authentication (token, Origin, Host) happens before the upgrade, in the HTTP server.
 */
export class WsTransport {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT });
  private readonly unsubscribe: () => void;

  constructor(
    private readonly router: IpcRouter,
    hub: EventHub,
    private readonly logger: Logger,
  ) {
    // Serialize each event once, whatever the number of clients.
    this.unsubscribe = hub.subscribe((event, payload) => {
      if (this.wss.clients.size === 0) return;
      const text = JSON.stringify({ type: 'event', event, payload } satisfies ServerFrame);
      for (const ws of this.wss.clients) {
        if (ws.readyState !== ws.OPEN) continue;
        if (ws.bufferedAmount > MAX_BUFFERED) ws.terminate();
        else ws.send(text);
      }
    });
    this.wss.on('connection', (ws) => this.attach(ws));
  }

  private attach(ws: WebSocket): void {
    ws.on('message', (data: RawData, isBinary: boolean) => {
      void this.onMessage(ws, data, isBinary);
    });
    ws.on('error', (error) => this.logger.warn(`WebSocket client error: ${error.message}`));
  }

  private async onMessage(ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    const buffer = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    if (isBinary) {
      reply(ws, null, {
        code: 'MALFORMED_MESSAGE',
        message: 'Binary frames are not part of the protocol; send JSON text.',
      });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(buffer.toString('utf8'));
    } catch {
      reply(ws, null, { code: 'MALFORMED_MESSAGE', message: 'The frame is not valid JSON.' });
      return;
    }
    const id = frameId(json);
    if (buffer.length > MAX_REQUEST_BYTES) {
      reply(ws, id, payloadTooLarge(buffer.length));
      return;
    }
    const frame = RequestFrame.safeParse(json);
    if (!frame.success) {
      reply(ws, id, {
        code: 'MALFORMED_MESSAGE',
        message: 'Expected {"type":"request","id":<integer>,"channel":<string>,"input":<any>}.',
      });
      return;
    }
    const result = await this.router.dispatch(frame.data.channel, frame.data.input, {
      transport: 'websocket',
    });
    send(ws, { type: 'response', id: frame.data.id, result });
  }

  close(): void {
    this.unsubscribe();
    for (const ws of this.wss.clients) ws.close(1001, 'server shutting down');
    this.wss.close();
  }
}
