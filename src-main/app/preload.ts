import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isEventName, isRequestChannel } from '@shared/ipc/contract';
import type { CarapaceBridge, WireResult } from '@shared/ipc/wire';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-channels';

/**
 * The narrow bridge: `invoke` for contract channels and one event listener, nothing else.
 * Raw ipcRenderer never reaches the page. The main process still validates everything.
 */
const bridge: CarapaceBridge = {
  invoke(channel: string, input: unknown): Promise<WireResult> {
    if (!isRequestChannel(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'UNKNOWN_CHANNEL', message: `There is no IPC channel "${channel}".` },
      });
    }
    return ipcRenderer.invoke(INVOKE_CHANNEL, channel, input) as Promise<WireResult>;
  },
  on(listener: (event: string, payload: unknown) => void): () => void {
    const handler = (_e: IpcRendererEvent, event: unknown, payload: unknown) => {
      if (isEventName(event)) listener(event, payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('carapace', bridge);
