import { newSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';

/** What the palette can run besides switching sessions: the workspace's own actions. */
export interface PaletteCommand {
  id: string;
  label: string;
  /** The key that does the same, shown beside it. */
  keys?: string;
  run(): void;
}

export function paletteCommands(): PaletteCommand[] {
  const state = useStore.getState();
  const active = state.tabs.active;
  const commands: PaletteCommand[] = [
    { id: 'new-session', label: 'New session', keys: 'Ctrl+T', run: () => void newSession() },
    { id: 'new-team', label: 'New team session', run: () => void newSession({ coordinator: true }) },
    { id: 'open-project', label: 'Open project…', run: () => useStore.setState({ dialog: 'open-project' }) },
    { id: 'settings', label: 'Open settings', run: () => useStore.setState({ dialog: 'settings' }) },
    { id: 'cost', label: 'Cost dashboard', keys: 'Ctrl+Shift+U', run: () => state.setCostOpen(true) },
    { id: 'memory', label: 'Memory browser', keys: 'Ctrl+Shift+M', run: () => state.setMemoryOpen(true) },
    {
      id: 'sidebar',
      label: state.sidebarCollapsed ? 'Show the sidebar' : 'Fold the sidebar',
      keys: 'Ctrl+B',
      run: () => state.setSidebarCollapsed(!state.sidebarCollapsed),
    },
    {
      id: 'layout',
      label: state.layout === 'grid' ? 'Show as tabs' : 'Show side by side',
      run: () => state.setLayout(state.layout === 'grid' ? 'tabs' : 'grid'),
    },
  ];
  if (active)
    commands.push({
      id: 'terminal',
      label: 'Show or hide the terminal',
      keys: 'Ctrl+`',
      run: () => state.toggleTerminal(active),
    });
  return commands;
}

/** Commands whose label holds every typed word. */
export function matchCommands(commands: readonly PaletteCommand[], text: string): PaletteCommand[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((c) => words.every((w) => c.label.toLowerCase().includes(w)));
}
