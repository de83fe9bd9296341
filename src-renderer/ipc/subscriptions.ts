import type { CarapaceClient } from '@shared/ipc/client';
import { messageText } from '@shared/domain/messages';
import { isWorking } from '@shared/domain/session';
import { notifySessionEnded } from '../features/notifications/notify';
import { bootstrap } from './actions';
import {
  applyDeltas,
  removeItem,
  setToolResult,
  upsertItem,
  useTranscripts,
} from '../stores/transcripts-store';
import { isInView, useWorkspace } from '../stores/workspace-store';
import { addPending, appendLog, removePending } from '../stores/permissions-store';
import { appendTaskOutput, upsertTask } from '../stores/tasks-store';

/**
 * Feeds contract events into the stores, once, outside React: each event is one targeted update.
 * Returns a disposer for every subscription.
 */
export function subscribe(client: CarapaceClient): () => void {
  const offs = [
    client.on('sessions.changed', ({ session }) => {
      const state = useWorkspace.getState();
      if (state.project && session.projectId !== state.project.id) return;
      const before = state.sessions[session.id];
      const finished = isWorking(before?.activity) && !isWorking(session.activity);
      const unseen = finished && !isInView(state, session.id, document.hidden);
      useWorkspace.setState((s) => ({
        sessions: { ...s.sessions, [session.id]: session },
        unseen: unseen ? { ...s.unseen, [session.id]: true } : s.unseen,
      }));
      if (unseen) {
        const items = useTranscripts.getState().bySession[session.id] ?? [];
        const last = items.findLast((i) => i.kind === 'message' && i.role === 'assistant');
        const preview = last?.kind === 'message' ? messageText(last.content) : '';
        notifySessionEnded(session, preview);
      }
    }),
    client.on('tabs.changed', ({ projectId, tabs }) => {
      if (useWorkspace.getState().project?.id === projectId) useWorkspace.setState({ tabs });
    }),
    client.on('transcript.appended', ({ sessionId, item }) => upsertItem(sessionId, item)),
    client.on('transcript.updated', ({ sessionId, item }) => upsertItem(sessionId, item)),
    client.on('transcript.removed', ({ sessionId, itemId }) => removeItem(sessionId, itemId)),
    client.on('tool.result', ({ sessionId, block }) => setToolResult(sessionId, block)),
    client.on('stream.batch', ({ deltas, progress, taskOutput }) => {
      applyDeltas(deltas, progress);
      appendTaskOutput(taskOutput);
    }),
    client.on('tasks.changed', ({ task }) => upsertTask(task)),
    client.on('settings.changed', ({ settings }) => useWorkspace.setState({ settings })),
    client.on('projects.changed', ({ recent }) => useWorkspace.setState({ recent })),
    client.on('permissions.requested', ({ request }) => addPending(request)),
    client.on('permissions.resolved', ({ requestId }) => removePending(requestId)),
    client.on('permissions.logged', ({ sessionId, entry }) => appendLog(sessionId, entry)),
  ];
  let wasOpen = false;
  offs.push(
    client.onConnection((connection) => {
      useWorkspace.setState({ connection });
      // After a drop, events may have been missed: refetch the whole picture.
      if (connection === 'open' && wasOpen) void bootstrap();
      if (connection === 'open') wasOpen = true;
    }),
  );
  return () => offs.forEach((off) => off());
}
