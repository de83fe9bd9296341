import { create } from 'zustand';

/** Unsent text per session, so switching tabs never loses what was typed. */
export const useDrafts = create<{ drafts: Record<string, string> }>()(() => ({ drafts: {} }));

export function setDraft(sessionId: string, text: string): void {
  useDrafts.setState((s) => ({ drafts: { ...s.drafts, [sessionId]: text } }));
}
