import type { RequestChannel, RequestInput } from '@shared/ipc/contract';
import { createHandlers } from '../ipc/handlers';
import { IpcRouter } from '../ipc/router';
import { silentLogger } from '../platform/logger';

/** Calls channels through the real IPC router over `services`, as the window does (validated both ways). */
export function ipcCall(
  services: Parameters<typeof createHandlers>[0],
  transport: 'websocket' | 'electron' = 'websocket',
) {
  const router = new IpcRouter(createHandlers(services), silentLogger);
  return <C extends RequestChannel>(channel: C, input: RequestInput<C>) =>
    router.dispatch(channel, input, { transport });
}
