import type { PermissionRequestView } from '@shared/domain/permissions';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import { getClient } from './client';
import { openProject, openSession } from './actions';
import { placeOf, unknownSessionTitle } from '../stores/attention-slice';
import { forgetSessionLocally } from '../stores/forget-session';
import { showToast, useStore, type AppState } from '../stores/store';
import { isInView } from '../stores/workspace-slice';
import { notifyApprovalNeeded, notifySessionEnded } from '../features/notifications/notify';

const store = () => useStore.getState();

/** Whether the person can see this session's approval prompt right now. */
export function sessionOnScreen(state: AppState, sessionId: string, documentHidden: boolean): boolean {
  const place = placeOf(state, sessionId);
  // A session of another project (or one the window has not heard of) is out of view by definition.
  if (!place?.onScreen) return false;
  return isInView(state, sessionId, documentHidden);
}

/** Loads the list of projects opened in this run and their sessions (also after a reconnect). */
export async function refreshOpenProjects(): Promise<void> {
  try {
    store().setOpenProjects(await getClient().invoke('projects.opened', {}));
  } catch {
    // Only the watching of other projects is late; the project on screen works on; the next
    // `projects.changed` or reconnect asks again.
  }
}

/**
 * Shows a session wherever it is: its project is opened first when another is on screen. Used by the
 * Inbox's "Go to" and by a click on a notification.
 */
export async function goToSession(projectId: string, sessionId: string): Promise<void> {
  const state = store();
  if (state.project?.id !== projectId) {
    const project = state.openProjects[projectId];
    if (!project) {
      showToast('That session’s project is no longer open.');
      return;
    }
    if (!(await openProject(project.path))) return;
  }
  await openSession(sessionId);
}

/** Requests already announced (or seen on screen when they came): never announced twice. */
const announced = new Set<string>();

/**
 * A permission request arrived: it joins the Inbox, and when its session is out of view (another tab,
 * another project, the window hidden) a desktop notification says so, once per request.
 */
export async function onPermissionRequested(request: PermissionRequestView): Promise<void> {
  store().addPending(request);
  if (announced.has(request.id)) return;
  announced.add(request.id);
  // A session the window has not heard of yet (a project opened by another window): ask for the list.
  if (!placeOf(store(), request.sessionId)) await refreshOpenProjects();
  const state = store();
  // Answered meanwhile (by another window, or the turn stopped): nothing to say.
  if (!state.pending.some((p) => p.id === request.id)) return;
  const place = placeOf(state, request.sessionId);
  if (!place) {
    // A session of a project no longer open (forgotten while it ran): it still waits for an answer,
    // which the Inbox takes; there is no session to show on a click.
    notifyApprovalNeeded(request, { title: unknownSessionTitle(request.sessionId) }, null);
    return;
  }
  if (sessionOnScreen(state, request.sessionId, document.hidden)) return;
  notifyApprovalNeeded(request, place.session, place.onScreen ? null : (place.project?.name ?? null), () => {
    void goToSession(place.session.projectId, place.session.id);
  });
}

/** A request was answered (here, in another window, or its turn stopped): it leaves the Inbox. */
export function onPermissionResolved(requestId: string): void {
  // Request ids are never reused: remembering answered ones would only grow the set for the whole run.
  announced.delete(requestId);
  store().removePending(requestId);
}

/**
 * A session was archived or trashed, in this window or another: it leaves the list of the project
 * on screen, and is no longer watched whichever project it belongs to (its tab closes by tabs.changed).
 */
export function onSessionRemoved(projectId: string, sessionId: string): void {
  if (store().project?.id === projectId) forgetSessionLocally(sessionId);
  store().unwatchSession(sessionId);
}

/**
 * A session of an open project other than the one on screen changed. It is out of view, so when it
 * finishes or fails it is marked unseen (its badge shows once its project is opened) and announced.
 */
export function onWatchedSession(session: SessionSummary): void {
  const state = store();
  const before = state.watchedSessions[session.id];
  state.watchSession(session);
  if (!isWorking(before?.activity) || isWorking(session.activity)) return;
  useStore.setState((s) => ({ unseen: { ...s.unseen, [session.id]: true } }));
  notifySessionEnded(session, '', {
    projectName: state.openProjects[session.projectId]?.name ?? 'another project',
    onClick: () => void goToSession(session.projectId, session.id),
  });
}

/** For tests: forgets which requests were announced. */
export function resetAnnounced(): void {
  announced.clear();
}

/** For tests: how many requests are remembered as announced. */
export function announcedCount(): number {
  return announced.size;
}
