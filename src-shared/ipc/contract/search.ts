import { z } from 'zod';
import { channel } from './common';

/**
 * Search across sessions: full text of messages, tool calls and tool results of one project's
 * sessions or every project's, from an index the main process keeps beside the transcripts.
 */

export const SearchScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('project'), projectId: z.string().min(1).max(500) }),
  z.strictObject({ kind: z.literal('all') }),
]);
export type SearchScope = z.infer<typeof SearchScope>;

const Millis = z.number().int().min(0).max(8.64e15);

export const SearchQuery = z.strictObject({
  text: z.string().trim().min(1).max(500),
  scope: SearchScope,
  /** Only pieces written at or after / before these times (ms since the epoch). */
  from: Millis.optional(),
  to: Millis.optional(),
  /** Only pieces of this model's replies and sessions. */
  model: z.string().min(1).max(200).optional(),
  /** Only failed tool calls, failed replies and error notices. */
  errorsOnly: z.boolean().optional(),
  limit: z.number().int().min(1).max(200).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchHitKind = z.enum(['user', 'assistant', 'tool_call', 'tool_result', 'notice']);
export type SearchHitKind = z.infer<typeof SearchHitKind>;

export const SearchHit = z.object({
  projectId: z.string(),
  /** The project's folder (to open it when it is not open), null when no transcript says. */
  projectPath: z.string().nullable(),
  projectName: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string(),
  /** The message to scroll to; for a tool result, the call's id (the result shows on its card). */
  itemId: z.string(),
  toolUseId: z.string().nullable(),
  kind: SearchHitKind,
  at: z.string(),
  model: z.string().nullable(),
  isError: z.boolean(),
  /**
   * A piece of a sub-agent's or teammate's work: who did it, and its own message. `itemId` and
   * `toolUseId` above then point at the Agent call in the session's transcript that started it (or
   * its top ancestor); a teammate's (`call` false) shows in the team view instead.
   */
  agent: z
    .object({
      agentId: z.string(),
      name: z.string(),
      agentType: z.string(),
      itemId: z.string(),
      toolUseId: z.string().nullable(),
      call: z.boolean(),
      /** The agents from the one whose call is in the session's transcript down to this one. */
      path: z.array(z.string()),
    })
    .nullable(),
  snippet: z.object({
    text: z.string(),
    /** [start, end) character ranges of `text` where the query's words occur. */
    highlights: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  }),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchAnswer = z.object({
  hits: z.array(SearchHit),
  /** Matches before the limit. */
  total: z.number().int().nonnegative(),
  /** Models seen in the scope, for the filter. */
  models: z.array(z.string()),
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;

export const requests = {
  'search.query': channel(SearchQuery, SearchAnswer),
} as const;

export const events = {} as const;
