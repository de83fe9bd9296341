import { z } from 'zod';
import { PermissionMode } from './permissions';

/** The modes a project's sessions may use: what a new session starts in, and whether bypass exists. */
export const PermissionModesView = z.object({
  defaultMode: PermissionMode,
  bypassAvailable: z.boolean(),
  /** Why bypass is unavailable (a policy disables it), or null. */
  bypassUnavailableReason: z.string().nullable(),
  /** Mode settings that were ignored (e.g. a project's own file asking for bypass), in words. */
  problems: z.array(z.string()),
});
export type PermissionModesView = z.infer<typeof PermissionModesView>;
