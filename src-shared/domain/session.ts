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

/** A background task of a session (a `run_in_background` command). */
export const TaskView = z.object({
  id: z.string(),
  sessionId: z.string(),
  kind: z.enum(['local_bash']),
  description: z.string(),
  command: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'killed']),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  exitCode: z.number().nullable(),
  /** The last few KB of output. */
  outputTail: z.string(),
});
export type TaskView = z.infer<typeof TaskView>;

/** New output of a background task, batched per frame; only the tail of a flood is kept. */
export const TaskOutputDelta = z.object({ sessionId: z.string(), taskId: z.string(), text: z.string() });
export type TaskOutputDelta = z.infer<typeof TaskOutputDelta>;
