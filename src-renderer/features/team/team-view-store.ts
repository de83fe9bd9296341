import { createContext, useContext } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { DEFAULT_STUCK_AFTER_SEC } from './stuck';

/**
 * What one team view panel is doing: which card is selected, whose transcript is open, the stuck
 * limit, the clock its elapsed times read. One store per panel (zustand's createStore + a context,
 * initialized from the panel's props), so two sessions side by side each have their own.
 */
export interface TeamViewProps {
  sessionId: string;
  /** No progress for this long looks stuck. */
  stuckAfterSec?: number;
  /** The clock, for tests. */
  now?: number;
}

export type SidePane = 'transcript' | 'messages';

export interface TeamViewState {
  sessionId: string;
  stuckAfterSec: number;
  now: number;
  /** The card with the keyboard's focus. */
  selected: string | null;
  /** The card whose transcript the side pane shows. */
  opened: string | null;
  pane: SidePane;
  /** The card with its message box open. */
  composing: string | null;
  /** The card asking "Stop it?". */
  confirmingStop: string | null;
  select(key: string): void;
  open(key: string): void;
  showPane(pane: SidePane): void;
  setStuckAfter(sec: number): void;
  tick(now: number): void;
  compose(key: string | null): void;
  confirmStop(key: string | null): void;
}

export type TeamViewStore = StoreApi<TeamViewState>;

/** The stuck limit is a per-window preference, like the layout. */
const STUCK_KEY = 'carapace.stuckAfterSec';

/** Anything under this would flag every member thinking over a long reply. */
export const MIN_STUCK_SEC = 10;

function storedStuckAfter(): number {
  try {
    const n = Number(localStorage.getItem(STUCK_KEY));
    return Number.isFinite(n) && n >= MIN_STUCK_SEC ? n : DEFAULT_STUCK_AFTER_SEC;
  } catch {
    return DEFAULT_STUCK_AFTER_SEC;
  }
}

export function createTeamViewStore(props: TeamViewProps): TeamViewStore {
  return createStore<TeamViewState>()((set) => ({
    sessionId: props.sessionId,
    stuckAfterSec: props.stuckAfterSec ?? storedStuckAfter(),
    now: props.now ?? Date.now(),
    selected: null,
    opened: null,
    pane: 'transcript',
    composing: null,
    confirmingStop: null,
    // Moving on drops a half-made decision about the card left behind.
    select: (key) =>
      set((s) => (s.selected === key ? s : { selected: key, composing: null, confirmingStop: null })),
    open: (key) => set({ selected: key, opened: key, pane: 'transcript' }),
    showPane: (pane) => set({ pane }),
    setStuckAfter: (sec) => {
      if (!Number.isFinite(sec)) return;
      const value = Math.max(MIN_STUCK_SEC, Math.round(sec));
      set({ stuckAfterSec: value });
      try {
        localStorage.setItem(STUCK_KEY, String(value));
      } catch {
        // Unavailable storage: the limit lasts while the view is open.
      }
    },
    tick: (now) => set({ now }),
    compose: (key) => set({ composing: key, confirmingStop: null }),
    confirmStop: (key) => set({ confirmingStop: key, composing: null }),
  }));
}

export const TeamViewContext = createContext<TeamViewStore | null>(null);

/** Reads the enclosing team view panel's state. */
export function useTeamView<T>(selector: (s: TeamViewState) => T): T {
  const store = useContext(TeamViewContext);
  if (!store) throw new Error('useTeamView needs a TeamViewContext provider (a team view panel).');
  return useStore(store, selector);
}

/** The enclosing panel's store itself, for handlers that read state at the moment of the event. */
export function useTeamViewStore(): TeamViewStore {
  const store = useContext(TeamViewContext);
  if (!store) throw new Error('useTeamViewStore needs a TeamViewContext provider (a team view panel).');
  return store;
}
