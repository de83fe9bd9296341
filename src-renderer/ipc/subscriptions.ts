import type { CarapaceClient } from '@shared/ipc/client';
import type { AgentSummary } from '@shared/domain/agents';
import { messageText } from '@shared/domain/messages';
import { isWorking, type SessionSummary, type TaskView } from '@shared/domain/session';
import {
  goToSession,
  onPermissionRequested,
  onPermissionResolved,
  onSessionRemoved,
  onWatchedSession,
  refreshOpenProjects,
} from './attention';
import { notifySessionEnded, notifyTaskEnded } from '../features/notifications/notify';
import { bootstrap } from './actions';
import { justStarted } from '../stores/agents-slice';
import { useStore } from '../stores/store';
import { isInView } from '../stores/workspace-slice';

const store = () => useStore.getState();

function onSession(session: SessionSummary): void {
  const state = store();
  // Another open project's session: watched for the Inbox and notifications, not shown.
  if (state.project && session.projectId !== state.project.id) {
    onWatchedSession(session);
    return;
  }
  state.watchSession(session);
  const before = state.sessions[session.id];
  const finished = isWorking(before?.activity) && !isWorking(session.activity);
  const inView = isInView(state, session.id, document.hidden);
  const unseen = finished && !inView;
  useStore.setState((s) => ({
    sessions: { ...s.sessions, [session.id]: session },
    unseen: unseen ? { ...s.unseen, [session.id]: true } : s.unseen,
  }));
  if (unseen) {
    const items = state.transcripts[session.id]?.[session.id]?.items ?? [];
    const last = items.findLast((i) => i.kind === 'message' && i.role === 'assistant');
    const preview = last?.kind === 'message' ? messageText(last.content) : '';
    notifySessionEnded(session, preview, { onClick: () => void goToSession(session.projectId, session.id) });
  }
  // A request for approval is announced per request, when it comes (features/notifications/attention).
}

/** A background agent that ends is announced: a toast in the window, and a desktop notification. */
function onTask(task: TaskView): void {
  const state = store();
  const before = (state.tasks[task.sessionId] ?? []).find((t) => t.id === task.id);
  state.upsertTask(task);
  if (task.kind !== 'local_agent' || task.status === 'running' || before?.status !== 'running') return;
  const how = task.status === 'completed' ? 'finished' : task.status === 'killed' ? 'was stopped' : 'failed';
  const session = state.sessions[task.sessionId]?.title ?? 'a session';
  state.showToast(`Background agent “${task.description}” ${how} (${session}).`);
  notifyTaskEnded(task, how, session, () => {
    const place = store().sessions[task.sessionId] ?? store().watchedSessions[task.sessionId];
    if (place) void goToSession(place.projectId, place.id);
  });
}

/**
 * A sub-agent or worker changed. One the window has never seen, announced at its very start in a
 * session whose transcript is loaded, starts with an empty transcript: every event of it follows, so
 * its live card needs no fetch. Any other unknown agent's transcript is fetched when shown.
 */
function onAgent(agent: AgentSummary): void {
  const state = store();
  const known = state.agents[agent.sessionId]?.[agent.id] !== undefined;
  state.upsertAgent(agent);
  const sessionLoaded = state.transcripts[agent.sessionId]?.[agent.sessionId] !== undefined;
  const agentLoaded = state.transcripts[agent.sessionId]?.[agent.id] !== undefined;
  if (!known && sessionLoaded && !agentLoaded && justStarted(agent))
    state.setTranscript(agent.sessionId, agent.id, []);
}

/**
 * Feeds contract events into the store, once, outside React: each event is one targeted update.
 * Every transcript event names its agent (the session's id for its main agent). Returns a disposer
 * for every subscription.
 */
export function subscribe(client: CarapaceClient): () => void {
  const offs = [
    client.on('sessions.changed', ({ session }) => onSession(session)),
    // Archived or trashed, in this window or another: it leaves the list (its tab closes by tabs.changed).
    client.on('sessions.removed', ({ projectId, sessionId }) => onSessionRemoved(projectId, sessionId)),
    client.on('tabs.changed', ({ projectId, tabs }) => {
      if (store().project?.id === projectId) store().receiveTabs(tabs);
    }),
    client.on('transcript.appended', ({ sessionId, agentId, item }) =>
      store().upsertItem(sessionId, agentId, item),
    ),
    client.on('transcript.updated', ({ sessionId, agentId, item }) =>
      store().upsertItem(sessionId, agentId, item),
    ),
    client.on('transcript.removed', ({ sessionId, agentId, itemId }) =>
      store().removeItem(sessionId, agentId, itemId),
    ),
    client.on('tool.result', ({ sessionId, agentId, block }) =>
      store().setToolResult(sessionId, agentId, block),
    ),
    client.on('stream.batch', ({ deltas, progress, taskOutput }) => {
      store().applyDeltas(deltas, progress);
      store().appendTaskOutput(taskOutput);
    }),
    client.on('agents.changed', ({ agent }) => onAgent(agent)),
    client.on('teams.changed', ({ team }) => store().setTeam(team)),
    client.on('teams.message', ({ sessionId, message }) => store().addTeamMessage(sessionId, message)),
    client.on('tasks.changed', ({ task }) => onTask(task)),
    client.on('settings.changed', ({ settings }) => useStore.setState({ settings })),
    client.on('projects.changed', ({ recent }) => {
      useStore.setState({ recent });
      // A project was opened or forgotten: the set the window watches may have changed.
      void refreshOpenProjects();
    }),
    client.on('permissions.requested', ({ request }) => void onPermissionRequested(request)),
    client.on('permissions.resolved', ({ requestId }) => onPermissionResolved(requestId)),
    client.on('permissions.logged', ({ sessionId, entry }) => store().appendPermissionLog(sessionId, entry)),
    // Sessions paused at a spending limit: Inbox items beside the permission requests.
    client.on('budgets.requested', ({ request }) => store().addBudgetPending(request)),
    client.on('budgets.resolved', ({ requestId }) => store().removeBudgetPending(requestId)),
  ];
  // Asked once the connection is open (and again after a drop: events may have been missed).
  const loadBudgetPending = () =>
    void client.invoke('budgets.pending', {}).then(
      (list) => store().setBudgetPending(list),
      () => undefined,
    );
  let wasOpen = false;
  offs.push(
    client.onConnection((connection) => {
      useStore.setState({ connection });
      // After a drop, events may have been missed: refetch the whole picture.
      if (connection === 'open' && wasOpen) void bootstrap();
      if (connection === 'open') {
        loadBudgetPending();
        wasOpen = true;
        void refreshOpenProjects();
      }
    }),
  );
  return () => offs.forEach((off) => off());
}
