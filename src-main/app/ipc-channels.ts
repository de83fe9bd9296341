/** The two Electron IPC channel names; the contract's own channel names travel inside them. */
export const INVOKE_CHANNEL = 'carapace:invoke';
export const EVENT_CHANNEL = 'carapace:event';

/** The custom scheme the renderer is served from, so 'self' in the CSP means exactly our files. */
export const APP_SCHEME = 'carapace';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
