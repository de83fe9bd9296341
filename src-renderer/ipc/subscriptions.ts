import type { CarapaceClient } from '@shared/ipc/client';
import type { AgentSummary } from '@shared/domain/agents';
import { messageText } from '@shared/domain/messages';
import { isWorking, type SessionSummary, type TaskView } from '@shared/domain/session';
import { notifySessionEnded, notifySessionNeedsYou, notifyTaskEnded } from '../features/notifications/notify';
import { bootstrap } from './actions';
import { justStarted } from '../stores/agents-slice';
import { useStore } from '../stores/store';
import { isInView } from '../stores/workspace-slice';

const store = () => useStore.getState();

function onSession(session: SessionSummary): void {
  const state = store();
  if (state.project && session.projectId !== state.project.id) return;
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
    notifySessionEnded(session, preview);
  }
  // A background session has no tab to show its prompt: the person is told it waits for them.
  if (session.background && session.waitingForUser && before?.waitingForUser !== true && !inView)
    notifySessionNeedsYou(session);
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
  notifyTaskEnded(task, how, session);
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
    client.on('projects.changed', ({ recent }) => useStore.setState({ recent })),
    client.on('permissions.requested', ({ request }) => store().addPending(request)),
    client.on('permissions.resolved', ({ requestId }) => store().removePending(requestId)),
    client.on('permissions.logged', ({ sessionId, entry }) => store().appendPermissionLog(sessionId, entry)),
  ];
  let wasOpen = false;
  offs.push(
    client.onConnection((connection) => {
      useStore.setState({ connection });
      // After a drop, events may have been missed: refetch the whole picture.
      if (connection === 'open' && wasOpen) void bootstrap();
      if (connection === 'open') wasOpen = true;
    }),
  );
  return () => offs.forEach((off) => off());
}
