import { IpcRequestError } from '@shared/domain/errors';
import type {
  EventName,
  EventPayload,
  RequestChannel,
  RequestInput,
  RequestOutput,
} from '@shared/ipc/contract';
import type { CarapaceClient, ConnectionState } from '@shared/ipc/client';
import type { CarapaceBridge } from '@shared/ipc/wire';
import { Emitter } from './emitter';

/** The desktop client: the preload's narrow bridge, typed by the contract. Always connected. */
export class ElectronClient implements CarapaceClient {
  private readonly events = new Emitter<[string, unknown]>();

  constructor(private readonly bridge: CarapaceBridge) {
    bridge.on((event, payload) => this.events.emit(event, payload));
  }

  async invoke<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<RequestOutput<C>> {
    const result = await this.bridge.invoke(channel, input);
    if (!result.ok) throw new IpcRequestError(result.error);
    return result.value as RequestOutput<C>;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.events.on((name, payload) => {
      if (name === event) listener(payload as EventPayload<E>);
    });
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    listener('open');
    return () => {};
  }
}
