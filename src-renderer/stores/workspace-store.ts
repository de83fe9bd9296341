import { create } from 'zustand';
import type { ModelInfo } from '@shared/domain/models';
import type { ProjectInfo } from '@shared/domain/project';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import type { SettingsView } from '@shared/domain/settings';
import type { TabsState, WorkspaceSnapshot } from '@shared/domain/workspace';
import type { AppInfo } from '@shared/ipc/contract';
import type { ConnectionState } from '@shared/ipc/client';

export type Layout = 'tabs' | 'grid';

export interface Toast {
  id: number;
  text: string;
}

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

export const useWorkspace = create<WorkspaceState>()(() => ({
  ...initialWorkspaceState,
  layout: storedLayout(),
}));

export function applySnapshot(snapshot: WorkspaceSnapshot): void {
  useWorkspace.setState({
    project: snapshot.project,
    sessions: Object.fromEntries(snapshot.sessions.map((s) => [s.id, s])),
    tabs: snapshot.tabs,
  });
}

export function setLayout(layout: Layout): void {
  useWorkspace.setState({ layout });
  try {
    localStorage.setItem(LAYOUT_KEY, layout);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

let toastId = 0;
export function showToast(text: string): void {
  const toast = { id: ++toastId, text };
  useWorkspace.setState((s) => ({ toasts: [...s.toasts, toast].slice(-5) }));
  setTimeout(() => dismissToast(toast.id), 8000);
}

export function dismissToast(id: number): void {
  useWorkspace.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

/** Whether a person can see this session right now. */
export function isInView(state: WorkspaceState, sessionId: string, documentHidden: boolean): boolean {
  if (documentHidden) return false;
  return state.layout === 'grid' ? state.tabs.open.includes(sessionId) : state.tabs.active === sessionId;
}

export function markSeen(sessionId: string): void {
  if (!useWorkspace.getState().unseen[sessionId]) return;
  useWorkspace.setState((s) => {
    const unseen = { ...s.unseen };
    delete unseen[sessionId];
    return { unseen };
  });
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
