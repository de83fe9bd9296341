import { z } from 'zod';

export const ProjectInfo = z.object({
  /** Stable id: the project's slug, derived from its absolute path. */
  id: z.string().min(1),
  path: z.string().min(1),
  name: z.string(),
  lastOpenedAt: z.string(),
});
export type ProjectInfo = z.infer<typeof ProjectInfo>;

export const DirectoryEntry = z.object({
  name: z.string(),
  path: z.string(),
});
export type DirectoryEntry = z.infer<typeof DirectoryEntry>;

export const DirectoryListing = z.object({
  path: z.string(),
  parent: z.string().nullable(),
  directories: z.array(DirectoryEntry),
  /** True when the folder holds more entries than were listed. */
  truncated: z.boolean(),
});
export type DirectoryListing = z.infer<typeof DirectoryListing>;
