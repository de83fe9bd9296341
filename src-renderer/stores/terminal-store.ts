import { create } from 'zustand';

/** Which sessions show their terminal panel. The shells themselves live in the main process. */
export const useTerminals = create<{ open: Record<string, boolean> }>()(() => ({ open: {} }));

export function setTerminalOpen(sessionId: string, open: boolean): void {
  useTerminals.setState((s) => ({ open: { ...s.open, [sessionId]: open } }));
}

export function toggleTerminal(sessionId: string): void {
  setTerminalOpen(sessionId, !useTerminals.getState().open[sessionId]);
}
