import type { StateCreator } from 'zustand';
import type { ModelInfo } from '@shared/domain/models';
import type { ProjectInfo } from '@shared/domain/project';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import type { SettingsView } from '@shared/domain/settings';
import type { TabsState, WorkspaceSnapshot } from '@shared/domain/workspace';
import type { AppInfo } from '@shared/ipc/contract';
import type { ConnectionState } from '@shared/ipc/client';
import { loadPinned, savePinned } from './pinned-storage';

export type Layout = 'tabs' | 'grid';

export interface Toast {
  id: number;
  text: string;
}

/** The window's picture of the open project: sessions, tabs, settings, and what is on screen. */
export interface WorkspaceState {
  connection: ConnectionState;
  appInfo: AppInfo | null;
  project: ProjectInfo | null;
  recent: ProjectInfo[];
  sessions: Record<string, SessionSummary>;
  tabs: TabsState;
  models: ModelInfo[];
  settings: SettingsView | null;
  /** Sessions that finished or failed while out of view, until looked at. */
  unseen: Record<string, true>;
  layout: Layout;
  toasts: Toast[];
  /** Which dialog is open, if any. */
  dialog: 'open-project' | 'settings' | null;
  /** The session whose message box should take focus once it is on screen (after a switch). */
  composerFocus: string | null;
  /**
   * A tab switched to here but not yet confirmed by the main process. Until it is, a `tabs.changed`
   * sent before the switch must not pull the view back (and the cursor out of the box being typed in).
   */
  pendingActive: string | null;
  /**
   * The sessions the person picked to tile side by side (none: those needing attention, see
   * tiledSessions), remembered per project in this browser.
   */
  tiled: string[];
  /** The sidebar folded away to a narrow rail (Ctrl+B), remembered in this browser. */
  sidebarCollapsed: boolean;
}

export interface WorkspaceSlice extends WorkspaceState {
  applySnapshot(snapshot: WorkspaceSnapshot): void;
  setSession(session: SessionSummary): void;
  setLayout(layout: Layout): void;
  showToast(text: string): void;
  dismissToast(id: number): void;
  markSeen(sessionId: string): void;
  /** Shows the session at once, before the main process confirms (optimistic, like reordering). */
  activateLocally(sessionId: string): void;
  /** The main process has answered the switch to this session (or refused it). */
  settleActivation(sessionId: string): void;
  /** The main process's tab list, keeping a switch it has not answered yet. */
  receiveTabs(tabs: TabsState): void;
  requestComposerFocus(sessionId: string | null): void;
  /** Pins a session to the side-by-side view, or unpins it. */
  toggleTiled(sessionId: string): void;
  /** Pins exactly these sessions (every open tab, or none). */
  setTiled(sessionIds: string[]): void;
  setSidebarCollapsed(collapsed: boolean): void;
}

export const initialWorkspaceState: WorkspaceState = {
  connection: 'connecting',
  appInfo: null,
  project: null,
  recent: [],
  sessions: {},
  tabs: { open: [], active: null },
  models: [],
  settings: null,
  unseen: {},
  layout: 'tabs',
  toasts: [],
  dialog: null,
  composerFocus: null,
  pendingActive: null,
  tiled: [],
  sidebarCollapsed: false,
};

/** Layout is a per-window preference, kept in this browser's storage rather than in the workspace. */
const LAYOUT_KEY = 'carapace.layout';

function storedLayout(): Layout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === 'grid' ? 'grid' : 'tabs';
  } catch {
    return 'tabs';
  }
}

/** Like the layout, whether the sidebar is folded is this window's preference. */
const SIDEBAR_KEY = 'carapace.sidebarCollapsed';

function storedSidebarCollapsed(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_KEY) === 'true';
  } catch {
    return false;
  }
}

let toastId = 0;

export const createWorkspaceSlice: StateCreator<WorkspaceSlice> = (set, get) => ({
  ...initialWorkspaceState,
  layout: storedLayout(),
  sidebarCollapsed: storedSidebarCollapsed(),
  applySnapshot: (snapshot) =>
    set({
      project: snapshot.project,
      sessions: Object.fromEntries(snapshot.sessions.map((s) => [s.id, s])),
      tabs: snapshot.tabs,
      tiled: loadPinned(snapshot.project.id, new Set(snapshot.sessions.map((s) => s.id))),
    }),
  setSession: (session) => set((s) => ({ sessions: { ...s.sessions, [session.id]: session } })),
  setLayout: (layout) => {
    set({ layout });
    try {
      localStorage.setItem(LAYOUT_KEY, layout);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
  },
  showToast: (text) => {
    const toast = { id: ++toastId, text };
    set((s) => ({ toasts: [...s.toasts, toast].slice(-5) }));
    setTimeout(() => get().dismissToast(toast.id), 8000);
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  markSeen: (sessionId) => {
    if (!get().unseen[sessionId]) return;
    set((s) => {
      const unseen = { ...s.unseen };
      delete unseen[sessionId];
      return { unseen };
    });
  },
  activateLocally: (sessionId) => {
    if (!get().tabs.open.includes(sessionId)) return;
    set((s) => ({ tabs: { ...s.tabs, active: sessionId }, pendingActive: sessionId }));
  },
  settleActivation: (sessionId) => {
    if (get().pendingActive === sessionId) set({ pendingActive: null });
  },
  receiveTabs: (tabs) =>
    set((s) => ({
      tabs:
        s.pendingActive !== null && tabs.open.includes(s.pendingActive)
          ? { ...tabs, active: s.pendingActive }
          : tabs,
    })),
  requestComposerFocus: (sessionId) => set({ composerFocus: sessionId }),
  toggleTiled: (sessionId) => {
    const { tiled } = get();
    get().setTiled(
      tiled.includes(sessionId) ? tiled.filter((id) => id !== sessionId) : [...tiled, sessionId],
    );
  },
  setTiled: (sessionIds) => {
    set({ tiled: [...sessionIds] });
    const project = get().project;
    if (project) savePinned(project.id, sessionIds);
  },
  setSidebarCollapsed: (collapsed) => {
    set({ sidebarCollapsed: collapsed });
    try {
      localStorage.setItem(SIDEBAR_KEY, String(collapsed));
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
  },
});

/**
 * The sessions side by side shows, in tab order: the open ones the person pinned or, with none
 * pinned, those that need the person (waiting for an answer or failed); and always the active one,
 * so a tab clicked in this view shows, and a session starting to wait never pulls the tile being
 * typed in from under the cursor.
 */
export function tiledSessions(state: Pick<WorkspaceState, 'tabs' | 'tiled' | 'sessions'>): string[] {
  const { open, active } = state.tabs;
  const pinned = open.some((id) => state.tiled.includes(id));
  return open.filter((id) => {
    if (id === active) return true;
    if (pinned) return state.tiled.includes(id);
    const session = state.sessions[id];
    return session?.waitingForUser === true || session?.activity === 'error';
  });
}

/** Whether a person can see this session right now. */
export function isInView(state: WorkspaceState, sessionId: string, documentHidden: boolean): boolean {
  if (documentHidden) return false;
  return state.layout === 'grid' ? tiledSessions(state).includes(sessionId) : state.tabs.active === sessionId;
}

export type Badge = 'working' | 'waiting' | 'error' | 'unseen' | 'idle';

/** The one state a tab or sidebar entry shows, most urgent first. */
export function badgeFor(session: SessionSummary, unseen: boolean): Badge {
  if (session.waitingForUser) return 'waiting';
  if (session.activity === 'error') return 'error';
  if (isWorking(session.activity)) return 'working';
  if (unseen) return 'unseen';
  return 'idle';
}

export const BADGE_LABELS: Record<Badge, string> = {
  working: 'working',
  waiting: 'waiting for you',
  error: 'error',
  unseen: 'done, unseen',
  idle: 'idle',
};
