import { z } from 'zod';
import { TokenUsage } from './usage';

/** Content blocks in the Messages API's shape, so transcripts map onto requests one to one. */
export const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
export const ThinkingBlock = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
export const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export const ImageBlock = z.object({
  type: z.literal('image'),
  source: z.object({
    type: z.literal('base64'),
    media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    data: z.string(),
  }),
});
export type ImageBlock = z.infer<typeof ImageBlock>;

/** What the UI shows for a tool's result besides its text; never sent to the model. */
/** A file change as shown: on an Edit or Write card, and (bounded) in its permission prompt. */
export const DiffDisplay = z.object({
  kind: z.literal('diff'),
  path: z.string(),
  created: z.boolean(),
  lines: z.array(z.object({ op: z.enum(['+', '-', ' ', '@']), text: z.string() })),
  added: z.number(),
  removed: z.number(),
});
export type DiffDisplay = z.infer<typeof DiffDisplay>;

export const ToolDisplay = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('read'),
    path: z.string(),
    startLine: z.number(),
    endLine: z.number(),
    totalLines: z.number(),
  }),
  z.object({ kind: z.literal('image'), path: z.string(), mediaType: z.string(), bytes: z.number() }),
  DiffDisplay,
  z.object({ kind: z.literal('files'), count: z.number(), truncated: z.boolean() }),
  /** An Agent call: which sub-agent ran (its card and transcript), what it cost, its verdict. */
  z.object({
    kind: z.literal('agent'),
    /** Null for a background agent not started yet when the call returned. */
    agentId: z.string().nullable(),
    agentType: z.string(),
    model: z.string().optional(),
    background: z.boolean(),
    taskId: z.string().optional(),
    /** Its own cost, and with the agents it started. */
    costUsd: z.number().nonnegative().optional(),
    totalCostUsd: z.number().nonnegative().optional(),
    totalTokens: z.number().int().nonnegative().optional(),
    toolUseCount: z.number().int().nonnegative().optional(),
    durationMs: z.number().nonnegative().optional(),
    verdict: z.enum(['PASS', 'FAIL']).optional(),
    verdictReasons: z.string().optional(),
  }),
  z.object({
    kind: z.literal('bash'),
    exitCode: z.number().nullable(),
    timedOut: z.boolean(),
    /** What the command does (search, read, list, write…); quiet runs fold into one line. */
    category: z.enum(['search', 'read', 'list', 'write', 'network', 'process', 'other']).optional(),
    /** The analysis proved it only reads (only such commands fold away). */
    readOnly: z.boolean().optional(),
    /** It ran inside the OS sandbox. */
    sandboxed: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('todos'),
    todos: z.array(
      z.object({ content: z.string(), status: z.enum(['pending', 'in_progress', 'completed']) }),
    ),
  }),
]);
export type ToolDisplay = z.infer<typeof ToolDisplay>;

export const ToolResultMeta = z.object({
  durationMs: z.number().nonnegative(),
  display: ToolDisplay.optional(),
  /** Where output too large for the model was saved in full. */
  savedTo: z.string().optional(),
});
export type ToolResultMeta = z.infer<typeof ToolResultMeta>;

export const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [TextBlock, ImageBlock]))]),
  is_error: z.boolean().optional(),
  /** UI-only: stripped before the block goes to the API. */
  meta: ToolResultMeta.optional(),
});
export type ToolUseBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;
export const ContentBlock = z.discriminatedUnion('type', [
  TextBlock,
  ThinkingBlock,
  ImageBlock,
  ToolUseBlock,
  ToolResultBlock,
]);
export type TextBlock = z.infer<typeof TextBlock>;
export type ContentBlock = z.infer<typeof ContentBlock>;

export const MessageStatus = z.enum([
  /** Still arriving from the model. */
  'streaming',
  'complete',
  /** Stopped by the user or by a dropped connection; what arrived is kept. */
  'interrupted',
  /** The API failed while this message streamed. */
  'error',
]);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const MessageItem = z.object({
  kind: z.literal('message'),
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.array(ContentBlock),
  createdAt: z.string(),
  status: MessageStatus,
  model: z.string().optional(),
  stopReason: z.string().nullable().optional(),
  usage: TokenUsage.optional(),
  /**
   * Who wrote a user-role message: the person, the harness returning tool results, or the harness
   * nudging the model (resume after the output limit, token budget, a blocking Stop hook), or
   * attaching the memories recalled for the person's message (`memory`).
   */
  origin: z.enum(['user', 'tool_results', 'nudge', 'interrupt', 'summary', 'memory']).optional(),
  /** The Messages API id of an assistant message (usage is counted once per id). */
  apiId: z.string().optional(),
});
export type MessageItem = z.infer<typeof MessageItem>;

/** Something the harness says in the transcript that is not a message: an API error, a recovery. */
export const NoticeItem = z.object({
  kind: z.literal('notice'),
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
  createdAt: z.string(),
  /** A stable code for the cause, e.g. `authentication_error`, for tests and styling. */
  code: z.string().optional(),
  /** A compaction's note: what ran, how it went, and the summary it expands to. */
  compaction: z
    .object({
      trigger: z.enum(['auto', 'snip', 'manual']),
      ok: z.boolean(),
      /** Failures in a row switched automatic compaction off for the session. */
      breakerOpen: z.boolean(),
      summarized: z.number().int().nonnegative().nullable(),
      summary: z.string().nullable(),
    })
    .optional(),
  /**
   * A hook run's note: what ran and how it ended, and its output (each stream cut at 10,000 characters,
   * with a note) to expand to. Strings, not enums: a newer event or outcome still loads. Transcripts
   * from before it have none and show the one-line text.
   */
  hook: z
    .object({
      event: z.string(),
      source: z.string(),
      label: z.string(),
      handlerType: z.string(),
      toolName: z.string().optional(),
      outcome: z.string(),
      exitCode: z.number().int().nullable(),
      durationMs: z.number().nonnegative(),
      stdout: z.string(),
      stderr: z.string(),
      problem: z.string().optional(),
    })
    .optional(),
});
export type NoticeItem = z.infer<typeof NoticeItem>;

export const TranscriptItem = z.discriminatedUnion('kind', [MessageItem, NoticeItem]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;

/** One incremental change to a streaming message; batched before it crosses IPC. */
export const StreamDelta = z.object({
  sessionId: z.string(),
  /** The agent streaming: the session's id for its main agent, else a sub-agent's or worker's. */
  agentId: z.string(),
  itemId: z.string(),
  index: z.number().int().nonnegative(),
  text: z.string(),
});
export type StreamDelta = z.infer<typeof StreamDelta>;

/** Live output of a running tool, batched with the text deltas. */
export const ToolProgressDelta = z.object({
  sessionId: z.string(),
  agentId: z.string(),
  toolUseId: z.string(),
  text: z.string(),
});
export type ToolProgressDelta = z.infer<typeof ToolProgressDelta>;

/** Plain text of a message's text blocks, for titles, previews and tests. */
export function messageText(content: readonly ContentBlock[]): string {
  return content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
