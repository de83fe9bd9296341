import { create, createStore, type StateCreator } from 'zustand';
import { createAgentsSlice, type AgentsSlice } from './agents-slice';
import { createAttentionSlice, type AttentionSlice } from './attention-slice';
import { createCostSlice, type CostSlice } from './cost-slice';
import { createMemorySlice, type MemorySlice } from './memory-slice';
import { createPanelsSlice, type PanelsSlice } from './panels-slice';
import { createPermissionsSlice, type PermissionsSlice } from './permissions-slice';
import { createTasksSlice, type TasksSlice } from './tasks-slice';
import { createTeamsSlice, type TeamsSlice } from './teams-slice';
import { createTranscriptsSlice, type TranscriptsSlice } from './transcripts-slice';
import { createTrustSlice, type TrustSlice } from './trust-slice';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice';

/**
 * The window's one store, made of typed slices (zustand's slices pattern): each slice owns its
 * fields and the actions that change them; nothing else writes them except through `setState` in the
 * IPC layer. Transcripts and agents are keyed by session and agent.
 */
export type AppState = WorkspaceSlice &
  TranscriptsSlice &
  AgentsSlice &
  TeamsSlice &
  TasksSlice &
  PermissionsSlice &
  PanelsSlice &
  TrustSlice &
  AttentionSlice &
  MemorySlice &
  CostSlice;

const slices: StateCreator<AppState> = (...a) => ({
  ...createWorkspaceSlice(...a),
  ...createTranscriptsSlice(...a),
  ...createAgentsSlice(...a),
  ...createTeamsSlice(...a),
  ...createTasksSlice(...a),
  ...createPermissionsSlice(...a),
  ...createPanelsSlice(...a),
  ...createTrustSlice(...a),
  ...createAttentionSlice(...a),
  ...createMemorySlice(...a),
  ...createCostSlice(...a),
});

/** The bound store the window uses: `useStore(selector)` in components, `useStore.getState()` elsewhere. */
export const useStore = create<AppState>()(slices);

/** A fresh, unbound store with the same slices: for tests that must not share state. */
export function createAppStore() {
  return createStore<AppState>()(slices);
}

/** Shorthand for the many places that only report a problem. */
export function showToast(text: string): void {
  useStore.getState().showToast(text);
}
