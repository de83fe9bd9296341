import { z } from 'zod';
import { TranscriptItem } from '../../domain/messages';
import { SessionId, SessionSummary } from '../../domain/session';
import { channel } from './common';

/**
 * "Rewind to here" and "Fork from here" on one of the person's messages. `rewind.plan` only looks:
 * which files the session's agents (sub-agents and teammates included) changed since, and whether
 * someone else changed them since or HEAD moved. `rewind.run` puts the files back and takes the
 * message and all after it out of the conversation; a plan that would lose someone's change runs
 * only `confirmed`. Nothing here runs git (no commit or branch moves).
 */

const MessageRef = z.strictObject({ sessionId: SessionId, messageId: z.string().min(1).max(100) });

export const RewindFile = z.strictObject({
  path: z.string(),
  display: z.string(),
  action: z.enum(['restore', 'delete']),
  restoreHash: z.string().nullable(),
  changedSince: z.boolean(),
  refused: z.string().nullable(),
});
export type RewindFile = z.infer<typeof RewindFile>;

export const RewindPlan = z.strictObject({
  messageId: z.string(),
  itemsRemoved: z.number().int().nonnegative(),
  files: z.array(RewindFile),
  headMoved: z.strictObject({ then: z.string(), now: z.string().nullable() }).nullable(),
  needsConfirmation: z.boolean(),
});
export type RewindPlan = z.infer<typeof RewindPlan>;

export const RewindOutcome = z.strictObject({
  restored: z.array(z.string()),
  deleted: z.array(z.string()),
  skipped: z.array(z.strictObject({ path: z.string(), reason: z.string() })),
  session: SessionSummary,
  /** The conversation as it now is (ends before the message). */
  transcript: z.array(TranscriptItem),
  /** The message's text, for the composer (to edit and send again). */
  draft: z.string(),
});
export type RewindOutcome = z.infer<typeof RewindOutcome>;

export const ForkOutcome = z.strictObject({
  session: SessionSummary,
  /** The message's text, for the new session's composer. */
  draft: z.string(),
});
export type ForkOutcome = z.infer<typeof ForkOutcome>;

export const requests = {
  'rewind.plan': channel(MessageRef, RewindPlan),
  /** `seen`: the files the dialog marked and whether it said HEAD moved (anything new is refused). */
  'rewind.run': channel(
    MessageRef.extend({
      confirmed: z.boolean(),
      seen: z
        .strictObject({ flagged: z.array(z.string().max(4096)).max(10_000), headMoved: z.boolean() })
        .optional(),
    }),
    RewindOutcome,
  ),
  /** A new session holding the conversation before the message (new ids), opened in a new tab. */
  'rewind.fork': channel(MessageRef, ForkOutcome),
} as const;

export const events = {} as const;
