import { useEffect, useState } from 'react';
import type { PermissionModesView } from '@shared/domain/permission-modes';
import { getClient } from '../../ipc/client';

/**
 * The modes a project's sessions may use (is bypass available?). Re-read when the window regains
 * focus, since a managed policy or settings file can change outside the app.
 */
export function usePermissionModes(projectId: string | null): PermissionModesView | null {
  const [view, setView] = useState<PermissionModesView | null>(null);
  useEffect(() => {
    if (projectId === null) return;
    let live = true;
    const load = () => {
      getClient()
        .invoke('sessions.modes', { projectId })
        .then(
          (v) => {
            if (live) setView(v);
          },
          () => undefined,
        );
    };
    load();
    window.addEventListener('focus', load);
    return () => {
      live = false;
      window.removeEventListener('focus', load);
    };
  }, [projectId]);
  return view;
}
