import { useEffect } from 'react';
import { isWorking } from '@shared/domain/session';
import { closeSession, newSession, openSession, reorderTabs, stopSession } from '../ipc/actions';
import { useStore } from '../stores/store';

/**
 * Workspace keys: Ctrl/Cmd+T new session, Ctrl/Cmd+W close tab, Ctrl/Cmd+1…9 switch (9 = last),
 * Ctrl/Cmd+Shift+←/→ move the tab, Ctrl+` shows or hides the terminal, Ctrl/Cmd+Shift+E shows or
 * hides the team view. A browser keeps Ctrl+T/W for itself, so Alt+T/Alt+W do the same. Inside the
 * terminal, Ctrl+T and Ctrl+W belong to the shell; inside a text field, Ctrl+Shift+←/→ selects words.
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
