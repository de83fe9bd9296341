import type { EventName, EventPayload, RequestChannel, RequestInput, RequestOutput } from './contract';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * What the renderer talks to. It neither knows nor cares whether Electron IPC or a WebSocket is
 * underneath. `invoke` rejects with `IpcRequestError` carrying the typed error the main process sent.
 */
export interface CarapaceClient {
  invoke<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<RequestOutput<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Connection changes; after a reconnect the caller should refetch what it shows. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}
