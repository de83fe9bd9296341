import { useEffect } from 'react';
import { isWorking } from '@shared/domain/session';
import { closeSession, newSession, openSession, reorderTabs, stopSession } from '../ipc/actions';
import { useStore } from '../stores/store';
import { setPaletteOpen, usePalette } from '../features/search/palette-store';

/**
 * Workspace keys: Ctrl/Cmd+T new session, Ctrl/Cmd+W close tab, Ctrl/Cmd+1…9 switch (9 = last),
 * Ctrl+Tab / Ctrl+Shift+Tab and Ctrl+PageDown / Ctrl+PageUp next / previous tab (wrapping),
 * Ctrl/Cmd+Shift+←/→ move the tab, Ctrl+` shows or hides the terminal, Ctrl/Cmd+Shift+E shows or
 * hides the team view, Ctrl/Cmd+B folds the sidebar. A browser keeps Ctrl+T/W and Ctrl+Tab for
 * itself, so Alt+T/Alt+W and Ctrl+PageDown/PageUp (which Chromium lets the page see) do the same.
 * Inside the terminal, Ctrl+T, Ctrl+W and Ctrl+B belong to the shell; inside a text field,
 * Ctrl+Shift+←/→ selects words. Ctrl/Cmd+Shift+M opens the memory browser; while it is open, the
 * workspace keys are off (it has its own: Ctrl+S, Ctrl+P, Esc). Ctrl/Cmd+Shift+U opens the cost
 * dashboard; while it is open the workspace keys are off too, and Esc closes it. Ctrl/Cmd+K opens
 * the command palette (sessions, commands, message search).
 */
export function handleShortcut(e: KeyboardEvent): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const { tabs, project, dialog } = useStore.getState();
  if (!project || dialog !== null) return false;
  const key = e.key.toLowerCase();
  if (mod && e.shiftKey && !e.altKey && key === 'm') {
    useStore.getState().setMemoryOpen(true);
    return true;
  }
  if (mod && e.shiftKey && !e.altKey && key === 'u') {
    useStore.getState().setCostOpen(true);
    return true;
  }
  if (useStore.getState().memoryOpen || useStore.getState().costOpen) return false;
  // Ctrl/Cmd+K: the command palette (again: closes it); while it is open it has the keyboard.
  if (mod && !e.shiftKey && !e.altKey && key === 'k') {
    setPaletteOpen(!usePalette.getState().open);
    return true;
  }
  if (usePalette.getState().open) return false;
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
  const step = tabStep(e);
  if (step !== 0) {
    const next = cycleTab(tabs.open, tabs.active, step);
    // Like a click: the view switches at once and the message box takes the cursor.
    if (next) void openSession(next);
    return true;
  }
  if (inTerminal && mod && !e.altKey && (key === 't' || key === 'w' || key === 'b')) return false;
  if (mod && !e.shiftKey && !e.altKey && key === 'b') {
    const state = useStore.getState();
    state.setSidebarCollapsed(!state.sidebarCollapsed);
    return true;
  }
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
  if (
    mod &&
    e.shiftKey &&
    (e.key === 'ArrowLeft' || e.key === 'ArrowRight') &&
    tabs.active &&
    !isTextField(e.target)
  ) {
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

/** +1 for "next tab" (Ctrl+Tab, Ctrl+PageDown), -1 for "previous" (Ctrl+Shift+Tab, Ctrl+PageUp), else 0. */
export function tabStep(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'>,
): number {
  // Ctrl, not Cmd: on a Mac Cmd+Tab is the system's app switcher and Ctrl+Tab is the tab key there too.
  if (!e.ctrlKey || e.altKey || e.metaKey) return 0;
  if (e.key === 'Tab') return e.shiftKey ? -1 : 1;
  if (e.shiftKey) return 0;
  if (e.key === 'PageDown') return 1;
  if (e.key === 'PageUp') return -1;
  return 0;
}

/** The tab `step` places from the active one, wrapping at both ends; null with no tabs. */
export function cycleTab(open: readonly string[], active: string | null, step: number): string | null {
  if (open.length === 0) return null;
  const i = active === null ? -1 : open.indexOf(active);
  if (i < 0) return open[step > 0 ? 0 : open.length - 1] ?? null;
  return open[(((i + step) % open.length) + open.length) % open.length] ?? null;
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement || target.isContentEditable) return true;
  return (
    target instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit'].includes(target.type)
  );
}

/**
 * Esc stops the visible session's reply wherever the cursor is. It is handled last (bubbling), so
 * anything that gives Esc its own meaning (a dialog, a form, the team view, the terminal's shell)
 * claims it first by stopping it or marking it handled.
 */
export function handleEscape(e: KeyboardEvent): boolean {
  if (e.key !== 'Escape' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || e.defaultPrevented)
    return false;
  if (e.target instanceof Element && e.target.closest('.terminal-panel, [role="dialog"]') !== null)
    return false;
  const { tabs, project, dialog, sessions } = useStore.getState();
  if (!project || dialog !== null || !tabs.active) return false;
  if (document.querySelector('[role="dialog"][aria-modal="true"]') !== null) return false;
  if (!isWorking(sessions[tabs.active]?.activity)) return false;
  void stopSession(tabs.active);
  return true;
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (handleShortcut(e)) e.preventDefault();
    };
    const onEscape = (e: KeyboardEvent) => {
      if (handleEscape(e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    window.addEventListener('keydown', onEscape);
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('keydown', onEscape);
    };
  }, []);
}
