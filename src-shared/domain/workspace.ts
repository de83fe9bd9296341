import { z } from 'zod';
import { ProjectInfo } from './project';
import { SessionSummary } from './session';

/** The open tabs of a project's workspace, in order; persisted so a reload brings them back. */
export const TabsState = z.object({
  open: z.array(z.string()),
  active: z.string().nullable(),
});
export type TabsState = z.infer<typeof TabsState>;

export const WorkspaceSnapshot = z.object({
  project: ProjectInfo,
  sessions: z.array(SessionSummary),
  tabs: TabsState,
});
export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshot>;

/** A project opened in this run and its sessions, watched for attention while another is on screen. */
export const OpenProject = z.object({
  project: ProjectInfo,
  sessions: z.array(SessionSummary),
});
export type OpenProject = z.infer<typeof OpenProject>;
