import { useEffect } from 'react';
import { create } from 'zustand';
import type { Unit } from './fold';
import './scroll-target.css';

/**
 * "Show me that message": a request (from search) to scroll a session's transcript to one item and
 * mark it for a moment. The transcript is virtualised, so the row may not be in the page, nor the
 * transcript loaded yet: the request waits here until the session's transcript holds the item.
 */

export interface ScrollTarget {
  sessionId: string;
  itemId: string;
  /** A tool result shows on its call's card: the call's id finds the row. */
  toolUseId: string | null;
  nonce: number;
}

interface ScrollTargetState {
  target: ScrollTarget | null;
  /** The row jumped to, marked for a moment. */
  marked: { sessionId: string; key: string; nonce: number } | null;
}

export const useScrollTargetStore = create<ScrollTargetState>(() => ({ target: null, marked: null }));

let nonce = 0;

export function requestScrollTo(target: Omit<ScrollTarget, 'nonce'>): void {
  useScrollTargetStore.setState({ target: { ...target, nonce: ++nonce } });
}

/** How long the row stays marked after the jump. */
export const HIGHLIGHT_MS = 2_500;

/** The row holding the item: its own, the fold it is in, or (a tool result) its call's. */
export function unitIndexOf(units: readonly Unit[], itemId: string, toolUseId: string | null): number {
  const holdsCall = (content: readonly { type: string; id?: string }[]) =>
    toolUseId !== null && content.some((b) => b.type === 'tool_use' && b.id === toolUseId);
  let own = -1;
  for (let i = 0; i < units.length; i++) {
    const u = units[i];
    if (!u) continue;
    if (u.kind === 'fold') {
      if (u.messages.some((m) => m.id === itemId || holdsCall(m.content))) return i;
      continue;
    }
    const item = u.item;
    if (item.kind === 'message' && holdsCall(item.content)) return i;
    if (item.id === itemId) own = i;
  }
  return own;
}

/**
 * Scrolls the session's transcript to the requested item once its rows hold it, and returns the key
 * of the row to mark (null when none). `jump` scrolls to a row index (the virtualiser knows where).
 */
export function useScrollToTarget(
  sessionId: string,
  active: boolean,
  units: readonly Unit[],
  keyOf: (unit: Unit) => string,
  jump: (index: number) => void,
): string | null {
  const target = useScrollTargetStore((s) => (active && s.target?.sessionId === sessionId ? s.target : null));
  const marked = useScrollTargetStore((s) => (active && s.marked?.sessionId === sessionId ? s.marked : null));
  useEffect(() => {
    if (!target) return;
    const i = unitIndexOf(units, target.itemId, target.toolUseId);
    // Not loaded yet: tried again when the rows change.
    if (i < 0) return;
    const unit = units[i];
    jump(i);
    useScrollTargetStore.setState((s) =>
      s.target?.nonce === target.nonce
        ? { target: null, marked: unit ? { sessionId, key: keyOf(unit), nonce: target.nonce } : null }
        : s,
    );
  }, [target, units, keyOf, jump, sessionId]);
  useEffect(() => {
    if (!marked) return;
    const timer = setTimeout(
      () => useScrollTargetStore.setState((s) => (s.marked?.nonce === marked.nonce ? { marked: null } : s)),
      HIGHLIGHT_MS,
    );
    return () => clearTimeout(timer);
  }, [marked]);
  return marked?.key ?? null;
}
