import type { StateCreator } from 'zustand';

/** Whether the memory browser is open. Its files and drafts live in the browser itself while it is. */
export interface MemorySlice {
  memoryOpen: boolean;
  setMemoryOpen(open: boolean): void;
}

export const createMemorySlice: StateCreator<MemorySlice> = (set) => ({
  memoryOpen: false,
  setMemoryOpen: (memoryOpen) => set({ memoryOpen }),
});
