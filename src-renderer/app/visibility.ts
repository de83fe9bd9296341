import { useEffect } from 'react';
import { useStore } from '../stores/store';

/** What is on screen counts as seen: the active tab (or every open one side by side) when the window is visible. */
export function useMarkSeenOnFocus(): void {
  const active = useStore((s) => s.tabs.active);
  const layout = useStore((s) => s.layout);
  const open = useStore((s) => s.tabs.open);
  useEffect(() => {
    const mark = () => {
      if (document.hidden) return;
      const visible = layout === 'grid' ? open : active ? [active] : [];
      visible.forEach((id) => useStore.getState().markSeen(id));
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [active, layout, open]);
}
