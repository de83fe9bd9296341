import { create } from 'zustand';

/**
 * The Changes view's state in the window: whether it is open per session, unified or side by side,
 * and the review comments a person left, kept per session until they are sent to the agent (a tab
 * switch or closing the view keeps them; sending clears them).
 */

export interface ReviewComment {
  id: string;
  file: string;
  /** 'new': a line of the changed file (added or context); 'old': a removed line. */
  side: 'old' | 'new';
  line: number;
  /** The line's text, quoted in the message so the agent sees what was meant. */
  quote: string;
  text: string;
}

export type DiffLayout = 'unified' | 'split';

interface ReviewState {
  open: Record<string, boolean>;
  layout: DiffLayout;
  comments: Record<string, ReviewComment[]>;
  setOpen(sessionId: string, open: boolean): void;
  toggle(sessionId: string): void;
  setLayout(layout: DiffLayout): void;
  addComment(sessionId: string, c: Omit<ReviewComment, 'id'>): void;
  removeComment(sessionId: string, id: string): void;
  clearComments(sessionId: string): void;
}

let next = 0;

export const useReview = create<ReviewState>()((set, get) => ({
  open: {},
  layout: 'unified',
  comments: {},
  setOpen: (sessionId, open) => set((s) => ({ open: { ...s.open, [sessionId]: open } })),
  toggle: (sessionId) => get().setOpen(sessionId, get().open[sessionId] !== true),
  setLayout: (layout) => set({ layout }),
  addComment: (sessionId, c) =>
    set((s) => ({
      comments: {
        ...s.comments,
        [sessionId]: [...(s.comments[sessionId] ?? []), { ...c, id: `c${++next}` }],
      },
    })),
  removeComment: (sessionId, id) =>
    set((s) => ({
      comments: { ...s.comments, [sessionId]: (s.comments[sessionId] ?? []).filter((c) => c.id !== id) },
    })),
  clearComments: (sessionId) => set((s) => ({ comments: { ...s.comments, [sessionId]: [] } })),
}));

const NONE: ReviewComment[] = [];
export const useSessionComments = (sessionId: string) => useReview((s) => s.comments[sessionId] ?? NONE);
