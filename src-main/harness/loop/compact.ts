import { randomUUID } from 'node:crypto';
import type { MessageItem } from '@shared/domain/messages';
import { messageText } from '@shared/domain/messages';
import { toApiMessages } from '../model/api-messages';
import { MessageAccumulator, type AccumulatedMessage } from '../model/accumulate';
import type { ModelClient } from '../model/model-client';
import { COMPACT_INSTRUCTIONS, compactedContext } from './nudges';

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
  | { ok: false; reason: string; response: AccumulatedMessage | null };

const SUMMARY_MAX_TOKENS = 4096;

/**
 * Reactive compact: older turns are summarized by one model call and replaced by the summary; the
 * latest user turn is kept verbatim (it starts at a person's prompt, so no tool result is orphaned).
 */
export async function reactiveCompact(
  client: ModelClient,
  model: string,
  messages: readonly MessageItem[],
  signal: AbortSignal,
): Promise<CompactResult> {
  const cut = messages.findLastIndex(
    (m) => m.role === 'user' && (m.origin === undefined || m.origin === 'user'),
  );
  if (cut <= 0)
    return {
      ok: false,
      reason: 'there is nothing older than the current request to summarize',
      response: null,
    };
  const older = messages.slice(0, cut);
  const request = [...toApiMessages(older), { role: 'user' as const, content: COMPACT_INSTRUCTIONS }];
  const acc = new MessageAccumulator();
  const started = performance.now();
  try {
    for await (const event of client.stream(
      { model, messages: request, maxTokens: SUMMARY_MAX_TOKENS },
      signal,
    ))
      acc.apply(event);
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
