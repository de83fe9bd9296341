import type { StateCreator } from 'zustand';

/** What the cost dashboard shows: kept while it is closed, so reopening it shows the same view. */
export type CostRange =
  { kind: 'today' } | { kind: 'days'; days: 7 | 30 } | { kind: 'custom'; from: string; to: string };

export interface CostView {
  scope: 'project' | 'all';
  range: CostRange;
  /** Claude Code's transcripts included (the toggle only shows when they exist). */
  claudeCode: boolean;
}

/** Whether the cost dashboard is open, and which session's cost view (if any) is open. */
export interface CostSlice {
  costOpen: boolean;
  setCostOpen(open: boolean): void;
  costView: CostView;
  setCostView(view: Partial<CostView>): void;
  /** The session whose own cost view (by model, turn, member) is open. */
  costSessionId: string | null;
  setCostSessionId(sessionId: string | null): void;
}

export const createCostSlice: StateCreator<CostSlice> = (set) => ({
  costOpen: false,
  setCostOpen: (costOpen) => set({ costOpen }),
  costView: { scope: 'project', range: { kind: 'days', days: 7 }, claudeCode: true },
  setCostView: (view) => set((s) => ({ costView: { ...s.costView, ...view } })),
  costSessionId: null,
  setCostSessionId: (costSessionId) => set({ costSessionId }),
});
