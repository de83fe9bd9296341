import { randomUUID } from 'node:crypto';
import type { MessageItem } from '@shared/domain/messages';
import { messageText } from '@shared/domain/messages';
import { toApiMessages } from '../model/api-messages';
import { MessageAccumulator, type AccumulatedMessage } from '../model/accumulate';
import type { ModelClient, ModelRequest } from '../model/model-client';
import type { AnyTool } from '../tools/tool';
import { buildRequest } from './request';
import { COMPACT_INSTRUCTIONS, compactedContext } from './nudges';

/** The hooks around a compaction (hooks/wire.ts compactHooks). */
export interface CompactHooks {
  /**
   * PreCompact: `blocked` stops this compaction with the hook's reason; otherwise the instructions
   * the summary follows (the person's, plus what the hooks added).
   */
  before(
    trigger: 'manual' | 'auto',
    instructions: string | undefined,
    signal: AbortSignal,
  ): Promise<{ blocked: string } | { instructions: string | undefined }>;
  /** PostCompact, with the summary message. */
  after(trigger: 'manual' | 'auto', summary: MessageItem): Promise<void>;
}

export type CompactResult =
  | {
      ok: true;
      messages: MessageItem[];
      summary: MessageItem;
      keepFromId: string;
      summarized: number;
      response: AccumulatedMessage;
      durationMs: number;
    }
  | {
      ok: false;
      reason: string;
      response: AccumulatedMessage | null;
      /** A PreCompact hook stopped it, with the hook's reason; no summary was asked for. */
      blocked?: string;
    };

const SUMMARY_MAX_TOKENS = 4096;

/**
 * Where a compaction cuts: the summary replaces everything before the returned index, and the
 * messages from it on stay verbatim. The latest prompt of the person when something older is there
 * (it starts a user turn, so no tool result is orphaned); otherwise, for a long single turn, the last
 * assistant message (its tool calls and their results stay together after the cut). -1: nothing older
 * to summarize.
 */
export function compactCut(messages: readonly MessageItem[]): number {
  const prompt = messages.findLastIndex(
    (m) => m.role === 'user' && (m.origin === undefined || m.origin === 'user'),
  );
  if (prompt > 0) return prompt;
  const assistant = messages.findLastIndex((m) => m.role === 'assistant');
  return assistant > 0 ? assistant : -1;
}

/**
 * What the summary request carries besides the messages: the session's system prompt and tools, so
 * its prefix is the conversation's own and is read from the prompt cache (and the API accepts the
 * tool calls in the history: it refuses tool_use and tool_result blocks in a request without tools).
 * `view` is how the messages were last sent (microcompact's placeholders), for the same reason.
 */
export interface SummaryPrefix {
  systemPrompt: string;
  tools: readonly AnyTool[];
  view?: ((messages: readonly MessageItem[]) => MessageItem[]) | undefined;
}

/**
 * Reactive compact: older turns are summarized by one model call and replaced by the summary; the
 * latest user turn is kept verbatim (it starts at a person's prompt, so no tool result is orphaned).
 * It is an automatic compaction as Claude Code counts them: PreCompact hooks (trigger "auto") run
 * first and may block it or add instructions for the summary, PostCompact hooks hear of the summary.
 */
export async function reactiveCompact(
  client: ModelClient,
  model: string,
  messages: readonly MessageItem[],
  signal: AbortSignal,
  prefix?: SummaryPrefix,
  hooks?: CompactHooks,
): Promise<CompactResult> {
  const cut = messages.findLastIndex(
    (m) => m.role === 'user' && (m.origin === undefined || m.origin === 'user'),
  );
  // Nothing to summarize: no hook is told of a compaction that cannot happen (as autocompact does).
  if (cut <= 0 || !hooks) return summarizeBefore(client, model, messages, cut, signal, undefined, prefix);
  const pre = await hooks.before('auto', undefined, signal);
  if ('blocked' in pre)
    return {
      ok: false,
      reason: `a PreCompact hook blocked it: ${pre.blocked}`,
      response: null,
      blocked: pre.blocked,
    };
  const result = await summarizeBefore(client, model, messages, cut, signal, pre.instructions, prefix);
  if (result.ok && !signal.aborted) await hooks.after('auto', result.summary);
  return result;
}

/**
 * Summarizes `messages` before index `cut` with one model call and returns the summary followed by
 * the messages from `cut` on. `instructions` are added to the summary request (a manual /compact's).
 */
export async function summarizeBefore(
  client: ModelClient,
  model: string,
  messages: readonly MessageItem[],
  cut: number,
  signal: AbortSignal,
  instructions?: string,
  prefix?: SummaryPrefix,
): Promise<CompactResult> {
  if (cut <= 0)
    return {
      ok: false,
      reason: 'there is nothing older than the current request to summarize',
      response: null,
    };
  const older = messages.slice(0, cut);
  const ask = instructions ? `${COMPACT_INSTRUCTIONS}\n\nAlso: ${instructions}` : COMPACT_INSTRUCTIONS;
  let request: ModelRequest;
  if (prefix) {
    const askItem: MessageItem = {
      kind: 'message',
      id: randomUUID(),
      role: 'user',
      origin: 'nudge',
      content: [{ type: 'text', text: ask }],
      createdAt: new Date().toISOString(),
      status: 'complete',
    };
    request = buildRequest({
      model,
      systemPrompt: prefix.systemPrompt,
      tools: prefix.tools,
      messages: [...(prefix.view ? prefix.view(older) : older), askItem],
      maxTokens: SUMMARY_MAX_TOKENS,
      keepThinking: true,
    });
  } else
    request = {
      model,
      messages: [...toApiMessages(older), { role: 'user' as const, content: ask }],
      maxTokens: SUMMARY_MAX_TOKENS,
    };
  const acc = new MessageAccumulator();
  const started = performance.now();
  try {
    for await (const event of client.stream(request, signal)) acc.apply(event);
  } catch (error) {
    return {
      ok: false,
      reason: `the summary request failed: ${(error as Error).message}`,
      response: acc.message.complete ? acc.message : null,
    };
  }
  const text = messageText(acc.message.content).trim();
  if (!acc.message.complete || text === '')
    return { ok: false, reason: 'the summary came back empty', response: acc.message };
  const summary: MessageItem = {
    kind: 'message',
    id: randomUUID(),
    role: 'user',
    origin: 'summary',
    content: [{ type: 'text', text: compactedContext(text) }],
    createdAt: new Date().toISOString(),
    status: 'complete',
  };
  const kept = messages.slice(cut);
  return {
    ok: true,
    messages: [summary, ...kept],
    summary,
    keepFromId: kept[0]?.id ?? '',
    summarized: older.length,
    response: acc.message,
    durationMs: performance.now() - started,
  };
}
