import type { ContentBlock, MessageItem } from '@shared/domain/messages';

/** Tool results in this many most recent messages stay verbatim. */
const KEEP_RECENT_MESSAGES = 4;

const placeholder = (name: string) =>
  `[Earlier ${name} output folded away to fit the context window. Run the tool again if you need it.]`;

function toolNames(messages: readonly MessageItem[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
  return names;
}

/**
 * Context-collapse drain: every tool result older than the last few messages is replaced by a short
 * placeholder. Local and cheap, and the messages around the results are untouched, so the
 * conversation still reads in order. Returns how many results were folded (0: nothing to gain).
 */
export function collapseDrain(messages: readonly MessageItem[]): {
  messages: MessageItem[];
  folded: number;
  keepFromId: string | null;
} {
  const cut = Math.max(0, messages.length - KEEP_RECENT_MESSAGES);
  return { ...foldBefore(messages, cut), keepFromId: messages[cut]?.id ?? null };
}

/** Folds the tool results of every message before index `cut` (also how a resumed session replays a collapse). */
export function foldBefore(
  messages: readonly MessageItem[],
  cut: number,
): { messages: MessageItem[]; folded: number } {
  const names = toolNames(messages);
  let folded = 0;
  const out: MessageItem[] = [];
  messages.forEach((m, i) => {
    if (i >= cut || m.role !== 'user') {
      out.push(m);
      return;
    }
    const content: ContentBlock[] = [];
    let foldedHere = 0;
    for (const b of m.content) {
      const text = b.type === 'tool_result' ? placeholder(names.get(b.tool_use_id) ?? 'tool') : null;
      if (b.type === 'tool_result' && text !== null && b.content !== text) {
        content.push({ ...b, content: text });
        foldedHere++;
      } else content.push(b);
    }
    folded += foldedHere;
    out.push(foldedHere > 0 ? { ...m, content } : m);
  });
  return { messages: out, folded };
}
