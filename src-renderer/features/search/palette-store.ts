import { create } from 'zustand';

/** Whether the command palette (Ctrl/Cmd+K) is open. */
export const usePalette = create<{ open: boolean }>(() => ({ open: false }));

export function setPaletteOpen(open: boolean): void {
  usePalette.setState({ open });
}
