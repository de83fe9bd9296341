import { newSession, setSessionModel } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';
import { findModel } from './suggestions';
import { useSettingsPage } from '../settings/settings-page';
import { askRewind, lastUserMessage } from '../rewind/rewind-actions';

/** What the composer does after a built-in ran: clear the box, send the text, or complete it. */
export type BuiltinOutcome =
  | { kind: 'done' }
  /** `/compact`: the engine runs it, so the text goes as a message. */
  | { kind: 'send' }
  /** `/model` without a name: the box becomes `/model ` and the list shows the models. */
  | { kind: 'complete'; text: string }
  /** A panel this feature draws itself. */
  | { kind: 'panel'; panel: 'help' | 'resume' };

/**
 * Scrolls a section of a dialog into view and moves focus to it, once the (lazily loaded) dialog has
 * drawn it. Gives up quietly after about a second: the dialog is open either way.
 */
function revealSection(label: string, tries = 60): void {
  const section = document.querySelector<HTMLElement>(`section[aria-label="${label}"]`);
  if (section) {
    section.scrollIntoView({ block: 'start' });
    if (!section.hasAttribute('tabindex')) section.setAttribute('tabindex', '-1');
    section.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => revealSection(label, tries - 1));
}

/** Runs a built-in command for the session on screen. `args` is what followed the name. */
export async function runBuiltin(name: string, args: string, sessionId: string): Promise<BuiltinOutcome> {
  const store = useStore.getState();
  switch (name) {
    case 'compact':
      return { kind: 'send' };
    case 'clear':
      // The app keeps every conversation: a clear start is a new session, the old one stays listed.
      await newSession();
      return { kind: 'done' };
    case 'cost':
      store.setCostSessionId(sessionId);
      return { kind: 'done' };
    case 'memory':
      store.setMemoryOpen(true);
      return { kind: 'done' };
    case 'permissions':
      useSettingsPage.setState({ page: 'general' });
      useStore.setState({ dialog: 'settings' });
      revealSection('Permission rules');
      return { kind: 'done' };
    case 'mcp':
      useSettingsPage.setState({ page: 'mcp' });
      useStore.setState({ dialog: 'settings' });
      revealSection('MCP servers');
      return { kind: 'done' };
    case 'agents':
      useSettingsPage.setState({ page: 'agents' });
      useStore.setState({ dialog: 'settings' });
      revealSection('Agents');
      return { kind: 'done' };
    case 'help':
      return { kind: 'panel', panel: 'help' };
    case 'resume':
      return { kind: 'panel', panel: 'resume' };
    case 'rewind': {
      // The confirm dialog for the last message of the person's (the transcript's hover actions
      // reach any earlier one).
      const messageId = lastUserMessage(sessionId);
      if (messageId === null) showToast('Nothing to rewind yet: this session has no message of yours.');
      else void askRewind(sessionId, messageId);
      return { kind: 'done' };
    }
    case 'model': {
      if (args.trim() === '') return { kind: 'complete', text: '/model ' };
      const model = findModel(store.models, args);
      if (!model) {
        showToast(`No model "${args.trim()}": pick one from the list after /model.`);
        return { kind: 'complete', text: '/model ' };
      }
      await setSessionModel(sessionId, model.id);
      return { kind: 'done' };
    }
    default:
      showToast(`/${name} is not available here.`);
      return { kind: 'done' };
  }
}
