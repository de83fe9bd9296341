import { randomUUID } from 'node:crypto';
import type { ContentBlock, MessageItem } from '@shared/domain/messages';

/** A history longer than this many messages is snipped. */
export const DEFAULT_SNIP_MAX_MESSAGES = 400;
/** How many of the latest messages a snip keeps (about; it starts at a safe boundary). */
export const DEFAULT_SNIP_KEEP_RECENT = 200;

export interface SnipOptions {
  enabled?: boolean | undefined;
  maxMessages?: number | undefined;
  keepRecent?: number | undefined;
}

export interface Snipped {
  messages: MessageItem[];
  /** The new first message: the conversation's opening, with the marker after it. */
  head: MessageItem;
  keepFromId: string;
  dropped: number;
}

export function snipMarker(dropped: number): string {
  return `[${dropped.toLocaleString('en-US')} earlier messages were snipped from the middle of this conversation to save room. What came before them is above; what came after follows.]`;
}

/** A message a kept tail may start with: no tool result in it, so none is orphaned by the cut. */
function safeStart(m: MessageItem): boolean {
  return m.role === 'assistant' || !m.content.some((b) => b.type === 'tool_result');
}

/**
 * Snip, the second compaction stage (after microcompact, before a summary): a very long history loses
 * its middle, locally and without a model call. The opening message stays (the person's first
 * request, or the summary of an earlier compaction: what the work is about), a marker says how many
 * messages went, and the latest ones stay verbatim from a boundary where no tool result is separated
 * from its call. The cut changes the cached prefix once, so it is made rarely: only past `maxMessages`,
 * and it brings the history down to about `keepRecent`, leaving room for many turns before the next.
 * The opening and the marker become one message, so a resumed session replays the snip as it replays a
 * compaction (that message, then the kept messages from `keepFromId`).
 */
export function snip(messages: readonly MessageItem[], options: SnipOptions = {}): Snipped | null {
  const max = options.maxMessages ?? DEFAULT_SNIP_MAX_MESSAGES;
  const keep = options.keepRecent ?? DEFAULT_SNIP_KEEP_RECENT;
  if (options.enabled === false || messages.length <= max) return null;
  const first = messages[0];
  if (!first || first.role !== 'user' || !safeStart(first)) return null;
  let from = Math.max(1, messages.length - keep);
  while (from < messages.length && !safeStart(messages[from] as MessageItem)) from++;
  // Nothing worth dropping, or no safe place to cut.
  if (from >= messages.length - 1 || from <= 2) return null;
  const dropped = from - 1;
  const content: ContentBlock[] = [...first.content, { type: 'text', text: snipMarker(dropped) }];
  const head: MessageItem = {
    ...first,
    id: randomUUID(),
    origin: 'summary',
    content,
    createdAt: new Date().toISOString(),
  };
  const kept = messages.slice(from);
  return { messages: [head, ...kept], head, keepFromId: kept[0]?.id ?? '', dropped };
}
