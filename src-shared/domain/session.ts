import { z } from 'zod';
import { PermissionMode } from './permissions';
import { TokenUsage } from './usage';

/** What the status bar shows: what the session is doing right now. */
export const SessionActivity = z.enum(['idle', 'thinking', 'streaming', 'tools', 'error']);
export type SessionActivity = z.infer<typeof SessionActivity>;

export const CostKind = z.enum([
  /** Priced from the dated price table. */
  'priced',
  /** The demo model: free, and said so. */
  'demo',
  /** A model the price table does not know: flagged, never shown as $0. */
  'unpriced',
]);
export type CostKind = z.infer<typeof CostKind>;

export const SessionSummary = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  model: z.string(),
  permissionMode: PermissionMode,
  activity: SessionActivity,
  /** A person is needed (e.g. a pending permission request). */
  waitingForUser: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  costKind: CostKind,
  messageCount: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const SessionTitle = z.string().trim().min(1).max(200);

export const SessionId = z.string().min(1).max(100);

/** Whether a session is busy (a turn is running): for badges, Stop buttons and notifications. */
export function isWorking(activity: SessionActivity | undefined): boolean {
  return activity === 'thinking' || activity === 'streaming' || activity === 'tools';
}
