import { IpcRequestError } from '@shared/domain/errors';
import type { PermissionMode, PermissionResponse, RulesView } from '@shared/domain/permissions';
import type { SettingsPatch } from '@shared/domain/settings';
import type { TrustedFolder } from '@shared/domain/trust';
import { getClient } from './client';
import { showToast, useStore } from '../stores/store';

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
const store = () => useStore.getState();
const projectId = () => store().project?.id ?? null;

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
  useStore.setState({ appInfo, recent, models, settings });
  useStore.setState({ pending: await c.invoke('permissions.pending', {}) });
  if (current) {
    store().applySnapshot(current);
    await Promise.all([...current.tabs.open.map((id) => loadTranscript(id)), checkTrust(current.project.id)]);
  }
}

export async function loadTranscript(sessionId: string): Promise<void> {
  const result = await attempt('Loading the session', () => client().invoke('sessions.get', { sessionId }));
  if (!result) return;
  // Its agents' transcripts in the window may have missed events (a reconnect): fetched anew when shown.
  store().forgetTranscripts(sessionId);
  // The session's main agent's transcript is keyed by the session's own id.
  store().setTranscript(sessionId, sessionId, result.transcript);
  store().setSession(result.session);
  const [tasks, terminal] = await Promise.all([
    attempt('Loading background tasks', () => client().invoke('tasks.list', { sessionId })),
    attempt('Looking for the terminal', () => client().invoke('terminal.find', { sessionId })),
    loadAgents(sessionId),
    result.session.coordinator ? loadTeam(sessionId) : undefined,
  ]);
  if (tasks) store().setTasks(sessionId, tasks);
  // A terminal left open before a reload comes back with its screen.
  if (terminal?.terminalId) store().setTerminalOpen(sessionId, true);
}

const transcriptFetches = new Map<string, Promise<string | null>>();

/**
 * Fetches a session's transcript when it is shown and the window does not hold it (the window let
 * it go while out of view: stores/transcript-eviction.ts). One request per session at a time.
 * Resolves to why it failed (in words), or null: the pane that asked shows the failure with a way
 * to try again, so it is not also a toast.
 */
export function fetchTranscript(sessionId: string): Promise<string | null> {
  const running = transcriptFetches.get(sessionId);
  if (running) return running;
  const fetch = (async () => {
    try {
      const result = await client().invoke('sessions.get', { sessionId });
      if (store().transcripts[sessionId]?.[sessionId]) return null;
      store().setTranscript(sessionId, sessionId, result.transcript);
      store().setSession(result.session);
      return null;
    } catch (error) {
      return error instanceof IpcRequestError || error instanceof Error ? error.message : String(error);
    }
  })().finally(() => transcriptFetches.delete(sessionId));
  transcriptFetches.set(sessionId, fetch);
  return fetch;
}

/** A session's sub-agents and workers (also those of earlier runs, for their cards). */
export async function loadAgents(sessionId: string): Promise<void> {
  const list = await attempt('Loading the agents', () => client().invoke('agents.list', { sessionId }));
  if (list) store().setAgents(sessionId, list);
}

const agentFetches = new Map<string, Promise<void>>();

/**
 * Fetches one agent's transcript (live or saved) when the window does not hold it: an agent card
 * opened after a reload, or a worker's transcript in the team view. One request per agent at a time.
 */
export function loadAgentTranscript(sessionId: string, agentId: string): Promise<void> {
  const key = `${sessionId}/${agentId}`;
  const running = agentFetches.get(key);
  if (running) return running;
  const fetch = (async () => {
    const items = await attempt("Loading the agent's transcript", () =>
      client().invoke('agents.transcript', { sessionId, agentId }),
    );
    if (items) store().setTranscript(sessionId, agentId, items);
  })().finally(() => agentFetches.delete(key));
  agentFetches.set(key, fetch);
  return fetch;
}

/** Stops one sub-agent or worker (and those it started); the rest of the session carries on. */
export async function stopAgent(sessionId: string, agentId: string): Promise<boolean> {
  const result = await attempt('Stopping the agent', () =>
    client().invoke('agents.stop', { sessionId, agentId }),
  );
  return result?.stopped === true;
}

export async function loadTeam(sessionId: string): Promise<void> {
  const team = await attempt('Loading the team', () => client().invoke('teams.get', { sessionId }));
  if (team) store().setTeam(team);
}

/** The person writes into a worker's mailbox; the worker reads it at its next turn. */
export async function messageMember(sessionId: string, to: string, text: string): Promise<boolean> {
  const message = await attempt(`Messaging ${to}`, () =>
    client().invoke('teams.message', { sessionId, to, text }),
  );
  if (message) store().addTeamMessage(sessionId, message);
  return message !== undefined;
}

/** Approves or rejects a worker's submitted plan, with feedback. */
export async function decidePlan(
  sessionId: string,
  member: string,
  approve: boolean,
  feedback: string,
): Promise<boolean> {
  const message = await attempt(approve ? 'Approving the plan' : 'Rejecting the plan', () =>
    client().invoke('teams.decidePlan', {
      sessionId,
      member,
      approve,
      ...(feedback.trim() !== '' ? { feedback: feedback.trim() } : {}),
    }),
  );
  if (message) store().addTeamMessage(sessionId, message);
  return message !== undefined;
}

/**
 * Sends a running session to the background (its tab closes, it keeps working, the window says when
 * it ends or needs the person) or brings it back.
 */
export async function setBackground(sessionId: string, background: boolean): Promise<void> {
  const session = await attempt(
    background ? 'Sending the session to the background' : 'Bringing the session back',
    () => client().invoke('sessions.setBackground', { sessionId, background }),
  );
  if (session) store().setSession(session);
}

export async function stopTask(sessionId: string, taskId: string): Promise<void> {
  await attempt('Stopping the task', () => client().invoke('tasks.stop', { sessionId, taskId }));
}

export async function openProject(path: string): Promise<boolean> {
  const snapshot = await attempt('Opening the project', () => client().invoke('projects.open', { path }));
  if (!snapshot) return false;
  store().applySnapshot(snapshot);
  useStore.setState({ dialog: null });
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
    useStore.setState({ trustPrompt: view });
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
  if (view) useStore.setState({ trustPrompt: view.pending > 0 ? view : null });
  return view !== undefined;
}

export async function listTrustedFolders(): Promise<TrustedFolder[] | undefined> {
  return attempt('Loading trusted folders', () => client().invoke('trust.list', {}));
}

export async function revokeTrust(path: string): Promise<TrustedFolder[] | undefined> {
  return attempt('Revoking trust', () => client().invoke('trust.revoke', { path }));
}

/**
 * A new session; a coordinator session runs a team of workers (its only tools are the team tools).
 * With the setting `worktrees.default` on (and `worktree` not false), it gets its own git worktree
 * from the branch the project is on.
 */
export async function newSession(options: { coordinator?: boolean; worktree?: boolean } = {}): Promise<void> {
  const id = projectId();
  if (id === null) return;
  const info =
    options.coordinator || options.worktree === false
      ? null
      : await client()
          .invoke('worktrees.info', { projectId: id })
          .catch(() => null);
  const base = info?.defaultOn ? info.current : null;
  const session = await attempt(options.coordinator ? 'Creating a team session' : 'Creating a session', () =>
    base !== null
      ? client().invoke('worktrees.createSession', { projectId: id, base })
      : client().invoke('sessions.create', {
          projectId: id,
          ...(options.coordinator ? { coordinator: true } : {}),
        }),
  );
  if (!session) return;
  store().setTranscript(session.id, session.id, []);
  // Nothing has started yet: every agent it starts is announced from now on.
  store().setAgents(session.id, []);
  // Its message box takes the cursor as soon as its tab shows.
  store().requestComposerFocus(session.id);
}

/**
 * Shows a session. An open tab switches at once, before the main process answers, so what is typed
 * right after the switch goes to the session on screen; `focus` puts the cursor in its message box
 * (not wanted when the keyboard is moving along the tab strip itself).
 */
export async function openSession(sessionId: string, options: { focus?: boolean } = {}): Promise<void> {
  const id = projectId();
  if (id === null) return;
  if (options.focus !== false) store().requestComposerFocus(sessionId);
  if (store().tabs.open.includes(sessionId)) store().activateLocally(sessionId);
  else await loadTranscript(sessionId);
  await attempt('Opening the session', () => client().invoke('tabs.activate', { projectId: id, sessionId }));
  store().settleActivation(sessionId);
  store().markSeen(sessionId);
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
  useStore.setState((s) => ({ tabs: { ...s.tabs, open: order } }));
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

/** Asks again after a failed or cut-off turn; the person's message is not repeated. */
export async function retrySession(sessionId: string): Promise<void> {
  await attempt('Retrying', () => client().invoke('sessions.retry', { sessionId }));
}

export async function updateSettings(patch: SettingsPatch): Promise<boolean> {
  const settings = await attempt('Saving settings', () => client().invoke('settings.update', patch));
  if (settings) useStore.setState({ settings });
  return settings !== undefined;
}

export async function setApiKey(key: string | null): Promise<boolean> {
  const settings = await attempt('Saving the API key', () => client().invoke('settings.setApiKey', { key }));
  if (settings) useStore.setState({ settings });
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
  if (entries) store().setPermissionLog(sessionId, entries);
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
