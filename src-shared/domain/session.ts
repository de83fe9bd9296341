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

/**
 * How full the context is (the status bar's meter): tokens the next request will hold, the model's
 * window, and where autocompact starts (null: it will not — switched off, or given up for the session).
 */
export const ContextMeter = z.object({
  tokens: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  autocompactAt: z.number().int().nonnegative().nullable(),
});
export type ContextMeter = z.infer<typeof ContextMeter>;

/**
 * A session run in its own git worktree on its own branch: `path` is the worktree's folder, `prefix`
 * the project's folder inside the repository ('' at its top), `base` the branch it merges into.
 */
export const SessionWorktree = z.object({
  path: z.string(),
  prefix: z.string().default(''),
  branch: z.string(),
  base: z.string(),
});
export type SessionWorktree = z.infer<typeof SessionWorktree>;

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
  /** A coordinator session (runs a team of workers). */
  coordinator: z.boolean().default(false),
  /** Sent to the background: its tab is closed, it keeps working, the person is told when it ends. */
  background: z.boolean().default(false),
  /**
   * Whether the last turn failed or was cut off so that Retry has something to ask again: the main
   * process decides (the context's last message must be the person's), not the look of the transcript.
   * Absent (a session listed but not loaded) means no.
   */
  canRetry: z.boolean().optional(),
  /** The context meter; absent for a session listed but not loaded. */
  context: ContextMeter.optional(),
  /** Its own git worktree, when it runs in one (its tools, sandbox and terminal work there). */
  worktree: SessionWorktree.optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const SessionTitle = z.string().trim().min(1).max(200);

export const SessionId = z.string().min(1).max(100);

/** Whether a session is busy (a turn is running): for badges, Stop buttons and notifications. */
export function isWorking(activity: SessionActivity | undefined): boolean {
  return activity === 'thinking' || activity === 'streaming' || activity === 'tools';
}

/**
 * Kinds of background work. `remote_agent`, `local_workflow` and `monitor_mcp` are declared for the
 * features that bring them; `dream` arrives with memory.
 */
export const TaskKind = z.enum([
  'local_bash',
  'local_agent',
  'in_process_teammate',
  'remote_agent',
  'local_workflow',
  'monitor_mcp',
  'dream',
]);
export type TaskKind = z.infer<typeof TaskKind>;

/** A background task of a session (a `run_in_background` command or agent, a teammate). */
export const TaskView = z.object({
  id: z.string(),
  sessionId: z.string(),
  kind: TaskKind,
  description: z.string(),
  /** The command (local_bash) or the prompt (agents). */
  command: z.string(),
  /** For agent tasks: the agent, once started (its transcript and card). */
  agentId: z.string().optional(),
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
