import { useStore } from './store';

/**
 * The session leaves the list and its tab (archived or trashed here, or `sessions.removed` from the
 * main process). In stores/ so both the event subscriptions and the archive actions can use it.
 */
export function forgetSessionLocally(sessionId: string): void {
  useStore.setState((s) => {
    if (!s.sessions[sessionId]) return {};
    const sessions = { ...s.sessions };
    delete sessions[sessionId];
    return { sessions };
  });
}
