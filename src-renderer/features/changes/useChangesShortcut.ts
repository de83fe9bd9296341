import { useEffect } from 'react';
import { useReview } from './review-store';

/** Ctrl+Shift+G (as in VS Code's source control) opens and closes the visible session's Changes view. */
export function useChangesShortcut(sessionId: string, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'g') {
        e.preventDefault();
        useReview.getState().toggle(sessionId);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sessionId, active]);
}
