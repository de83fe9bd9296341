import { IpcRequestError } from '@shared/domain/errors';
import type { PermissionMode, PermissionResponse, RulesView } from '@shared/domain/permissions';
import type { SettingsPatch } from '@shared/domain/settings';
import type { TrustedFolder } from '@shared/domain/trust';
import { getClient } from './client';
import { setTranscript } from '../stores/transcripts-store';
import { setLog, usePermissions } from '../stores/permissions-store';
import { setTasks } from '../stores/tasks-store';
import { setTerminalOpen } from '../stores/terminal-store';
import { useTrust } from '../stores/trust-store';
import { applySnapshot, markSeen, showToast, useWorkspace } from '../stores/workspace-store';

/** Runs a request; a failure becomes a toast (and `undefined`) instead of an unhandled rejection. */
async function attempt<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const message =
      error instanceof IpcRequestError || error instanceof Error ? error.message : String(error);
    showToast(`${what}: ${message}`);
    return undefined;
  }
}

const client = () => getClient();
const projectId = () => useWorkspace.getState().project?.id ?? null;

/** Loads everything the window shows; also run after a reconnect, since events may have been missed. */
export async function bootstrap(): Promise<void> {
  const c = client();
  const [appInfo, recent, models, settings, current] = await Promise.all([
    c.invoke('app.info', {}),
    c.invoke('projects.recent', {}),
    c.invoke('models.list', {}),
    c.invoke('settings.get', {}),
    c.invoke('projects.current', {}),
  ]);
  useWorkspace.setState({ appInfo, recent, models, settings });
  usePermissions.setState({ pending: await c.invoke('permissions.pending', {}) });
  if (current) {
    applySnapshot(current);
    await Promise.all([...current.tabs.open.map((id) => loadTranscript(id)), checkTrust(current.project.id)]);
  }
}

export async function loadTranscript(sessionId: string): Promise<void> {
  const result = await attempt('Loading the session', () => client().invoke('sessions.get', { sessionId }));
  if (!result) return;
  setTranscript(sessionId, result.transcript);
  useWorkspace.setState((s) => ({ sessions: { ...s.sessions, [sessionId]: result.session } }));
  const [tasks, terminal] = await Promise.all([
    attempt('Loading background tasks', () => client().invoke('tasks.list', { sessionId })),
    attempt('Looking for the terminal', () => client().invoke('terminal.find', { sessionId })),
  ]);
  if (tasks) setTasks(sessionId, tasks);
  // A terminal left open before a reload comes back with its screen.
  if (terminal?.terminalId) setTerminalOpen(sessionId, true);
}

export async function stopTask(sessionId: string, taskId: string): Promise<void> {
  await attempt('Stopping the task', () => client().invoke('tasks.stop', { sessionId, taskId }));
}

export async function openProject(path: string): Promise<boolean> {
  const snapshot = await attempt('Opening the project', () => client().invoke('projects.open', { path }));
  if (!snapshot) return false;
  applySnapshot(snapshot);
  useWorkspace.setState({ dialog: null });
  await Promise.all([...snapshot.tabs.open.map((id) => loadTranscript(id)), checkTrust(snapshot.project.id)]);
  return true;
}

/**
 * Asks "Trust this folder?" when the project's own settings would widen something nobody has decided
 * on yet; until then the main process applies none of it.
 */
export async function checkTrust(projectId: string, always = false): Promise<void> {
  const view = await attempt('Checking folder trust', () => client().invoke('trust.get', { projectId }));
  if (view && (view.pending > 0 || (always && view.items.some((i) => i.state !== 'accepted'))))
    useTrust.setState({ prompt: view });
}

/**
 * Decides on exactly the items the dialog showed (`keys`): the main process leaves anything else
 * pending, so when the files gained an item meanwhile the dialog asks again, about that.
 */
export async function decideTrust(
  projectId: string,
  trust: boolean,
  keys: readonly string[],
): Promise<boolean> {
  const view = await attempt('Saving the trust decision', () =>
    client().invoke('trust.decide', { projectId, trust, keys: [...keys] }),
  );
  if (view) useTrust.setState({ prompt: view.pending > 0 ? view : null });
  return view !== undefined;
}

export async function listTrustedFolders(): Promise<TrustedFolder[] | undefined> {
  return attempt('Loading trusted folders', () => client().invoke('trust.list', {}));
}

export async function revokeTrust(path: string): Promise<TrustedFolder[] | undefined> {
  return attempt('Revoking trust', () => client().invoke('trust.revoke', { path }));
}

export async function newSession(): Promise<void> {
  const id = projectId();
  if (id === null) return;
  const session = await attempt('Creating a session', () =>
    client().invoke('sessions.create', { projectId: id }),
  );
  if (session) setTranscript(session.id, []);
}

export async function openSession(sessionId: string): Promise<void> {
  const id = projectId();
  if (id === null) return;
  if (!useWorkspace.getState().tabs.open.includes(sessionId)) await loadTranscript(sessionId);
  await attempt('Opening the session', () => client().invoke('tabs.activate', { projectId: id, sessionId }));
  markSeen(sessionId);
}

export async function closeSession(sessionId: string): Promise<void> {
  const id = projectId();
  if (id === null) return;
  await attempt('Closing the tab', () => client().invoke('tabs.close', { projectId: id, sessionId }));
}

export async function reorderTabs(order: string[]): Promise<void> {
  const id = projectId();
  if (id === null) return;
  // Show the new order at once; the main process's answer (tabs.changed) confirms it.
  useWorkspace.setState((s) => ({ tabs: { ...s.tabs, open: order } }));
  await attempt('Reordering tabs', () => client().invoke('tabs.reorder', { projectId: id, order }));
}

export async function renameSession(sessionId: string, title: string): Promise<void> {
  await attempt('Renaming the session', () => client().invoke('sessions.rename', { sessionId, title }));
}

export async function setSessionModel(sessionId: string, model: string): Promise<void> {
  await attempt('Changing the model', () => client().invoke('sessions.setModel', { sessionId, model }));
}

export async function setPermissionMode(sessionId: string, mode: PermissionMode): Promise<void> {
  await attempt('Changing the permission mode', () =>
    client().invoke('sessions.setPermissionMode', { sessionId, mode }),
  );
}

export async function sendMessage(sessionId: string, text: string): Promise<boolean> {
  const result = await attempt('Sending', () => client().invoke('sessions.send', { sessionId, text }));
  return result !== undefined;
}

export async function stopSession(sessionId: string): Promise<void> {
  await attempt('Stopping', () => client().invoke('sessions.stop', { sessionId }));
}

export async function updateSettings(patch: SettingsPatch): Promise<boolean> {
  const settings = await attempt('Saving settings', () => client().invoke('settings.update', patch));
  if (settings) useWorkspace.setState({ settings });
  return settings !== undefined;
}

export async function setApiKey(key: string | null): Promise<boolean> {
  const settings = await attempt('Saving the API key', () => client().invoke('settings.setApiKey', { key }));
  if (settings) useWorkspace.setState({ settings });
  return settings !== undefined;
}

export async function respondPermission(response: PermissionResponse): Promise<boolean> {
  const ok = await attempt('Answering the permission request', () =>
    client().invoke('permissions.respond', response),
  );
  return ok !== undefined;
}

export async function loadPermissionLog(sessionId: string): Promise<void> {
  const entries = await attempt('Loading the permission log', () =>
    client().invoke('permissions.log', { sessionId }),
  );
  if (entries) setLog(sessionId, entries);
}

export async function loadRules(): Promise<RulesView | undefined> {
  const id = projectId();
  if (id === null) return undefined;
  return attempt('Loading permission rules', () => client().invoke('permissions.rules', { projectId: id }));
}

export async function addRule(
  behavior: 'allow' | 'deny' | 'ask',
  text: string,
): Promise<RulesView | undefined> {
  const id = projectId();
  if (id === null) return undefined;
  return attempt('Saving the rule', () =>
    client().invoke('permissions.addRule', { projectId: id, behavior, text }),
  );
}

export async function removeRule(
  behavior: 'allow' | 'deny' | 'ask',
  text: string,
): Promise<RulesView | undefined> {
  const id = projectId();
  if (id === null) return undefined;
  return attempt('Removing the rule', () =>
    client().invoke('permissions.removeRule', { projectId: id, behavior, text }),
  );
}
