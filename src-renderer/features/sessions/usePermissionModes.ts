import type { PermissionModesView } from '@shared/domain/permission-modes';
import { useProjectQuery } from './useProjectQuery';

/**
 * The modes a project's sessions may use (is bypass available?). Re-read when the window regains
 * focus, since a managed policy or settings file can change outside the app.
 */
export function usePermissionModes(projectId: string | null): PermissionModesView | null {
  return useProjectQuery('sessions.modes', projectId);
}
