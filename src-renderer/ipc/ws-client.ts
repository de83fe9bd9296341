import { IpcRequestError } from '@shared/domain/errors';
import type {
  EventName,
  EventPayload,
  RequestChannel,
  RequestInput,
  RequestOutput,
} from '@shared/ipc/contract';
import type { CarapaceClient, ConnectionState } from '@shared/ipc/client';
import { ServerFrame } from '@shared/ipc/wire';
import { Emitter } from './emitter';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const RECONNECT_INITIAL_MS = 250;
const RECONNECT_MAX_MS = 5000;

/**
 * The serve-mode client: contract requests and events over one WebSocket, reconnecting with backoff.
 * Requests made while disconnected wait for the socket; requests in flight when it drops fail with a
 * retryable error (their answer is lost, and replaying them could double a side effect).
 */
export class WebSocketClient implements CarapaceClient {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly queue: string[] = [];
  private readonly events = new Emitter<[string, unknown]>();
  private readonly connection = new Emitter<[ConnectionState]>();
  private state: ConnectionState = 'connecting';
  private delay = RECONNECT_INITIAL_MS;
  private closed = false;

  constructor(private readonly url: string) {
    this.connect();
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.connection.emit(state);
  }

  private connect(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = RECONNECT_INITIAL_MS;
      this.setState('open');
      for (const frame of this.queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (message: MessageEvent) => {
      if (typeof message.data === 'string') this.onFrame(message.data);
    };
    ws.onclose = () => {
      this.ws = null;
      for (const [id, p] of this.pending) {
        p.reject(
          new IpcRequestError({
            code: 'UNAVAILABLE',
            message: 'The connection to Carapace was lost.',
            retryable: true,
          }),
        );
        this.pending.delete(id);
      }
      if (this.closed) return this.setState('closed');
      this.setState('reconnecting');
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
    };
  }

  private onFrame(text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    const frame = ServerFrame.safeParse(data);
    if (!frame.success) return;
    const f = frame.data;
    if (f.type === 'event') this.events.emit(f.event, f.payload);
    else if (f.type === 'response') {
      const p = this.pending.get(f.id);
      if (!p) return;
      this.pending.delete(f.id);
      if (f.result.ok) p.resolve(f.result.value);
      else p.reject(new IpcRequestError(f.result.error));
    } else {
      console.error('Carapace protocol error:', f.error.message);
    }
  }

  invoke<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<RequestOutput<C>> {
    const id = this.nextId++;
    const frame = JSON.stringify({ type: 'request', id, channel, input });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
      else this.queue.push(frame);
    });
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.events.on((name, payload) => {
      if (name === event) listener(payload as EventPayload<E>);
    });
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    listener(this.state);
    return this.connection.on(listener);
  }

  /** Sends a raw frame, bypassing the typed API (tests of the server's validation use it). */
  sendRaw(text: string): void {
    this.ws?.send(text);
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}

/** The socket URL for the page we were served from, carrying its token. */
export function socketUrlFor(location: Location): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}
