import { z } from 'zod';
import { DirectoryListing, ProjectInfo } from '../../domain/project';
import { OpenProject, WorkspaceSnapshot } from '../../domain/workspace';
import { channel, Empty } from './common';

/** Projects (recent, open, forget) and the folder browser used to pick one. */

export const requests = {
  'projects.recent': channel(Empty, z.array(ProjectInfo)),
  /** The project opened last (by any window), so a reload lands where it was. */
  'projects.current': channel(Empty, WorkspaceSnapshot.nullable()),
  'projects.open': channel(z.strictObject({ path: z.string().min(1).max(4096) }), WorkspaceSnapshot),
  /**
   * Every project opened in this run with its sessions: a window shows one project, but pending
   * approvals and endings of the others reach its Inbox and notifications.
   */
  'projects.opened': channel(Empty, z.array(OpenProject)),
  'projects.forget': channel(z.strictObject({ path: z.string().min(1).max(4096) }), z.array(ProjectInfo)),

  'fs.listDirectory': channel(
    z.strictObject({ path: z.string().min(1).max(4096).optional(), showHidden: z.boolean().optional() }),
    DirectoryListing,
  ),
  'fs.pickDirectory': channel(Empty, z.object({ path: z.string().nullable() })),
} as const;

export const events = {
  'projects.changed': z.object({ recent: z.array(ProjectInfo) }),
} as const;
