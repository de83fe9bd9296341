import { z } from 'zod';
import { SessionId, TaskView } from '../../domain/session';
import { channel, SessionRef } from './common';

/** Background tasks (their output streams in `stream.batch`, see sessions). */

export const requests = {
  /** A session's background tasks, running and ended. */
  'tasks.list': channel(SessionRef, z.array(TaskView)),
  'tasks.stop': channel(
    z.strictObject({ sessionId: SessionId, taskId: z.string().min(1).max(100) }),
    z.object({ stopped: z.boolean() }),
  ),
} as const;

export const events = {
  /** A background task started or ended. */
  'tasks.changed': z.object({ task: TaskView }),
} as const;
