import { z } from 'zod';
import { StreamDelta, ToolProgressDelta, ToolResultBlock, TranscriptItem } from '../../domain/messages';
import { ModelId } from '../../domain/models';
import { PermissionModesView } from '../../domain/permission-modes';
import { PermissionMode } from '../../domain/permissions';
import { SessionId, SessionSummary, SessionTitle, TaskOutputDelta } from '../../domain/session';
import { channel, ProjectRef, SessionRef } from './common';

/** A session put away: in the project's Archived list, or in the app's trash. */
export const StoredSession = z.object({
  id: SessionId,
  title: z.string(),
  model: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  /** When it went to the trash (trash entries only). */
  trashedAt: z.string().optional(),
});
export type StoredSession = z.infer<typeof StoredSession>;

/** One session of one project, named by both: archived and trashed sessions are not loaded. */
const ProjectSessionRef = z.strictObject({ projectId: z.string().min(1).max(500), sessionId: SessionId });

/** Sessions and what they stream: transcript items, text deltas, tool progress and results. */

export const requests = {
  'sessions.list': channel(ProjectRef, z.array(SessionSummary)),
  'sessions.create': channel(
    z.strictObject({
      projectId: z.string().min(1).max(500),
      model: ModelId.optional(),
      /** A coordinator session: its only tools are TeamCreate, TeamDelete, SendMessage, SyntheticOutput. */
      coordinator: z.boolean().optional(),
    }),
    SessionSummary,
  ),
  'sessions.get': channel(
    SessionRef,
    z.object({ session: SessionSummary, transcript: z.array(TranscriptItem) }),
  ),
  /** Starts a turn and returns at once; the reply arrives as events. */
  'sessions.send': channel(
    z.strictObject({ sessionId: SessionId, text: z.string().trim().min(1).max(1_000_000) }),
    z.object({ messageId: z.string() }),
  ),
  'sessions.stop': channel(SessionRef, z.object({ stopped: z.boolean() })),
  /**
   * Runs a session's failed or cut-off last turn again (an API error, a reply the app died in)
   * without repeating the person's message; CONFLICT when it is working or has nothing to retry.
   */
  'sessions.retry': channel(SessionRef, z.object({ retried: z.literal(true) })),
  'sessions.rename': channel(z.strictObject({ sessionId: SessionId, title: SessionTitle }), SessionSummary),
  'sessions.setModel': channel(z.strictObject({ sessionId: SessionId, model: ModelId }), SessionSummary),
  'sessions.setPermissionMode': channel(
    z.strictObject({ sessionId: SessionId, mode: PermissionMode }),
    SessionSummary,
  ),
  /**
   * Sends a session to the background (its tab closes, it keeps working, the person is told when it
   * ends or needs them) or brings it back (`background: false`, reopening its tab).
   */
  'sessions.setBackground': channel(
    z.strictObject({ sessionId: SessionId, background: z.boolean() }),
    SessionSummary,
  ),
  /** The modes a project's sessions may use (start mode from trusted sources; bypass unless disabled). */
  'sessions.modes': channel(ProjectRef, PermissionModesView),
  /** Hides a stopped session from the tabs and the list, into the project's Archived list. */
  'sessions.archive': channel(ProjectSessionRef, StoredSession),
  'sessions.archived': channel(ProjectRef, z.array(StoredSession)),
  /** Brings an archived session back into the list. */
  'sessions.unarchive': channel(ProjectSessionRef, SessionSummary),
  /** Moves a stopped session (listed or archived) to the trash under the app's data folder; nothing is erased. */
  'sessions.delete': channel(ProjectSessionRef, StoredSession),
  'sessions.trash': channel(ProjectRef, z.array(StoredSession)),
  /** Brings a session back from the trash into the list. */
  'sessions.restore': channel(ProjectSessionRef, SessionSummary),
  /** Erases a trashed session's files: the one step that cannot be undone. */
  'sessions.deleteForever': channel(ProjectSessionRef, z.object({ deleted: z.literal(true) })),
} as const;

export const events = {
  /** A session's summary changed (activity, title, usage, cost, model). */
  'sessions.changed': z.object({ session: SessionSummary }),
  /** A session left the list (archived or sent to the trash). */
  'sessions.removed': z.object({ projectId: z.string(), sessionId: z.string() }),
  /** A new transcript item; a streaming assistant message arrives first empty, then as deltas. */
  'transcript.appended': z.object({ sessionId: z.string(), agentId: z.string(), item: TranscriptItem }),
  /** An item replaced whole, e.g. a streamed message in its final form. */
  'transcript.updated': z.object({ sessionId: z.string(), agentId: z.string(), item: TranscriptItem }),
  /** A shown message withdrawn (a failed attempt, a reply regenerated with a larger limit). */
  'transcript.removed': z.object({ sessionId: z.string(), agentId: z.string(), itemId: z.string() }),
  /** Text deltas and tool output of every running session, batched (about one frame's worth per message). */
  'stream.batch': z.object({
    deltas: z.array(StreamDelta),
    progress: z.array(ToolProgressDelta),
    taskOutput: z.array(TaskOutputDelta),
  }),
  /** A tool call finished; its result arrives before the message that collects all results of the round. */
  'tool.result': z.object({ sessionId: z.string(), agentId: z.string(), block: ToolResultBlock }),
} as const;
