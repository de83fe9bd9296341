import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { MAX_REQUEST_BYTES } from '@shared/ipc/contract';
import type { WireResult } from '@shared/ipc/wire';
import { payloadTooLarge, type IpcRouter } from '../ipc/router';
import type { EventHub } from '../workspace/event-hub';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-channels';

/** Size of a structured-clone payload, measured as JSON; a payload JSON cannot express is refused too. */
function payloadBytes(input: unknown): number | null {
  try {
    return Buffer.byteLength(JSON.stringify(input ?? null));
  } catch {
    return null;
  }
}

/**
 * The desktop transport: `ipcMain.handle` for requests, `webContents.send` for events. Every message's
 * sender frame is checked: only the top frame of one of our windows, showing our own origin.
 */
export class ElectronTransport {
  private readonly windows = new Set<WebContents>();
  private readonly unsubscribe: () => void;

  constructor(
    router: IpcRouter,
    hub: EventHub,
    private readonly isTrustedUrl: (url: string) => boolean,
  ) {
    ipcMain.handle(
      INVOKE_CHANNEL,
      async (event: IpcMainInvokeEvent, channel: unknown, input: unknown): Promise<WireResult> => {
        if (!this.trusted(event)) {
          return {
            ok: false,
            error: { code: 'FORBIDDEN', message: 'IPC is accepted only from the Carapace window.' },
          };
        }
        const bytes = payloadBytes(input);
        if (bytes === null)
          return {
            ok: false,
            error: { code: 'INVALID_INPUT', message: 'The input is not JSON-serializable.' },
          };
        if (bytes > MAX_REQUEST_BYTES) return { ok: false, error: payloadTooLarge(bytes) };
        return router.dispatch(channel, input, { transport: 'electron' });
      },
    );
    this.unsubscribe = hub.subscribe((name, payload) => {
      for (const wc of this.windows) if (!wc.isDestroyed()) wc.send(EVENT_CHANNEL, name, payload);
    });
  }

  private trusted(event: IpcMainInvokeEvent): boolean {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null) return false;
    return this.windows.has(event.sender) && this.isTrustedUrl(frame.url);
  }

  addWindow(contents: WebContents): void {
    this.windows.add(contents);
    contents.once('destroyed', () => this.windows.delete(contents));
  }

  dispose(): void {
    this.unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  }
}
