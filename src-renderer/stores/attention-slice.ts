import type { StateCreator } from 'zustand';
import type { ProjectInfo } from '@shared/domain/project';
import type { SessionSummary } from '@shared/domain/session';
import type { OpenProject } from '@shared/domain/workspace';

/**
 * What the window watches beyond the project on screen: every project opened in this run and the
 * sessions of each. The main process keeps those sessions running when the window shows another
 * project, so their approvals and endings still reach the Inbox and the notifications.
 */
export interface AttentionSlice {
  /** Projects opened in this run (by any window), by id. */
  openProjects: Record<string, ProjectInfo>;
  /** Sessions of every open project, by id; the project on screen's are in `sessions` as well. */
  watchedSessions: Record<string, SessionSummary>;
  setOpenProjects(list: readonly OpenProject[]): void;
  watchSession(session: SessionSummary): void;
  /** A session was archived or trashed (in any project): no longer watched. */
  unwatchSession(sessionId: string): void;
}

export const createAttentionSlice: StateCreator<AttentionSlice> = (set) => ({
  openProjects: {},
  watchedSessions: {},
  setOpenProjects: (list) =>
    set({
      openProjects: Object.fromEntries(list.map((p) => [p.project.id, p.project])),
      watchedSessions: Object.fromEntries(list.flatMap((p) => p.sessions.map((s) => [s.id, s]))),
    }),
  watchSession: (session) =>
    set((s) => ({ watchedSessions: { ...s.watchedSessions, [session.id]: session } })),
  unwatchSession: (sessionId) =>
    set((s) => {
      if (!s.watchedSessions[sessionId]) return {};
      const watchedSessions = { ...s.watchedSessions };
      delete watchedSessions[sessionId];
      return { watchedSessions };
    }),
});

/** Where a session lives, as far as the window knows: the session and its project. */
export interface SessionPlace {
  session: SessionSummary;
  project: ProjectInfo | null;
  /** Whether its project is the one on screen. */
  onScreen: boolean;
}

interface PlaceState extends AttentionSlice {
  project: ProjectInfo | null;
  sessions: Record<string, SessionSummary>;
}

export function placeOf(state: PlaceState, sessionId: string): SessionPlace | null {
  // The project on screen's own copy is the freshest (it is updated by every path that loads one).
  const session = state.sessions[sessionId] ?? state.watchedSessions[sessionId];
  if (!session) return null;
  const onScreen = state.project !== null && session.projectId === state.project.id;
  const project = onScreen ? state.project : (state.openProjects[session.projectId] ?? null);
  return { session, project, onScreen };
}

/**
 * The name of a session the window knows nothing of (its project was forgotten, or opened by another
 * window): its requests are still shown and answerable, so nothing waits unseen.
 */
export function unknownSessionTitle(sessionId: string): string {
  return `Session ${sessionId.slice(0, 8)}`;
}
