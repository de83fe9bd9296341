import { useEffect } from 'react';
import { closeSession, newSession, openSession, reorderTabs } from '../ipc/actions';
import { useStore } from '../stores/store';

/**
 * Workspace keys: Ctrl/Cmd+T new session, Ctrl/Cmd+W close tab, Ctrl/Cmd+1…9 switch (9 = last),
 * Ctrl/Cmd+Shift+←/→ move the tab, Ctrl+` shows or hides the terminal, Ctrl/Cmd+Shift+E shows or
 * hides the team view. A browser keeps Ctrl+T/W for itself, so Alt+T/Alt+W do the same. Inside the
 * terminal, Ctrl+T and Ctrl+W belong to the shell.
 */
export function handleShortcut(e: KeyboardEvent): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const { tabs, project, dialog } = useStore.getState();
  if (!project || dialog !== null) return false;
  const key = e.key.toLowerCase();
  const inTerminal = e.target instanceof Element && e.target.closest('.terminal-panel') !== null;
  if (e.ctrlKey && !e.shiftKey && !e.altKey && e.code === 'Backquote') {
    if (tabs.active) useStore.getState().toggleTerminal(tabs.active);
    return true;
  }
  if (mod && e.shiftKey && !e.altKey && key === 'e') {
    if (tabs.active) {
      const state = useStore.getState();
      state.setTeamViewOpen(tabs.active, state.teamViewOpen[tabs.active] !== true);
    }
    return true;
  }
  if (inTerminal && mod && !e.altKey && (key === 't' || key === 'w')) return false;
  if ((mod && !e.shiftKey && !e.altKey && key === 't') || (e.altKey && !mod && key === 't')) {
    void newSession();
    return true;
  }
  if ((mod && !e.shiftKey && !e.altKey && key === 'w') || (e.altKey && !mod && key === 'w')) {
    if (tabs.active) void closeSession(tabs.active);
    return true;
  }
  if (mod && !e.shiftKey && !e.altKey && /^[1-9]$/.test(e.key)) {
    const n = Number(e.key);
    const id = n === 9 ? tabs.open.at(-1) : tabs.open[n - 1];
    if (id) void openSession(id);
    return true;
  }
  if (mod && e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight') && tabs.active) {
    const i = tabs.open.indexOf(tabs.active);
    const j = e.key === 'ArrowLeft' ? i - 1 : i + 1;
    if (i < 0 || j < 0 || j >= tabs.open.length) return true;
    const order = [...tabs.open];
    [order[i], order[j]] = [order[j] as string, order[i] as string];
    void reorderTabs(order);
    return true;
  }
  return false;
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (handleShortcut(e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);
}
