import type { CarapaceClient } from '@shared/ipc/client';
import type { CarapaceBridge } from '@shared/ipc/wire';
import { ElectronClient } from './electron-client';
import { socketUrlFor, WebSocketClient } from './ws-client';

declare global {
  interface Window {
    /** Present only in the desktop app, put there by the preload. */
    carapace?: CarapaceBridge;
  }
}

let client: CarapaceClient | null = null;

/** Picks the transport once: the preload's bridge in the desktop app, else the serve-mode socket. */
export function createClient(): CarapaceClient {
  client = window.carapace
    ? new ElectronClient(window.carapace)
    : new WebSocketClient(socketUrlFor(window.location));
  return client;
}

export function setClient(c: CarapaceClient): void {
  client = c;
}

export function getClient(): CarapaceClient {
  if (!client) throw new Error('The IPC client is not set up yet.');
  return client;
}
