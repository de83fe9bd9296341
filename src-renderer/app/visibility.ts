import { useEffect } from 'react';
import { markSeen, useWorkspace } from '../stores/workspace-store';

/** What is on screen counts as seen: the active tab (or every open one side by side) when the window is visible. */
export function useMarkSeenOnFocus(): void {
  const active = useWorkspace((s) => s.tabs.active);
  const layout = useWorkspace((s) => s.layout);
  const open = useWorkspace((s) => s.tabs.open);
  useEffect(() => {
    const mark = () => {
      if (document.hidden) return;
      const visible = layout === 'grid' ? open : active ? [active] : [];
      visible.forEach(markSeen);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [active, layout, open]);
}
