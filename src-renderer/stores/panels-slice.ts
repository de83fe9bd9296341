import type { StateCreator } from 'zustand';

/** Which extra panels each session shows. The shells and agents themselves live in the main process. */
export interface PanelsSlice {
  terminalOpen: Record<string, boolean>;
  /** Sessions showing their team view instead of their transcript. */
  teamViewOpen: Record<string, boolean>;
  setTerminalOpen(sessionId: string, open: boolean): void;
  toggleTerminal(sessionId: string): void;
  setTeamViewOpen(sessionId: string, open: boolean): void;
}

export const createPanelsSlice: StateCreator<PanelsSlice> = (set, get) => ({
  terminalOpen: {},
  teamViewOpen: {},
  setTerminalOpen: (sessionId, open) =>
    set((s) => ({ terminalOpen: { ...s.terminalOpen, [sessionId]: open } })),
  toggleTerminal: (sessionId) => get().setTerminalOpen(sessionId, !get().terminalOpen[sessionId]),
  setTeamViewOpen: (sessionId, open) =>
    set((s) => ({ teamViewOpen: { ...s.teamViewOpen, [sessionId]: open } })),
});
