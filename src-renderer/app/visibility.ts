import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../stores/store';
import { tiledSessions } from '../stores/workspace-slice';

/** What is on screen counts as seen: the active tab (or the tiles side by side) when the window is visible. */
export function useMarkSeenOnFocus(): void {
  const active = useStore((s) => s.tabs.active);
  const layout = useStore((s) => s.layout);
  const tiled = useStore(useShallow((s) => (s.layout === 'grid' ? tiledSessions(s) : [])));
  useEffect(() => {
    const mark = () => {
      if (document.hidden) return;
      const visible = layout === 'grid' ? tiled : active ? [active] : [];
      visible.forEach((id) => useStore.getState().markSeen(id));
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [active, layout, tiled]);
}
