import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, MessageItem, TranscriptItem } from '@shared/domain/messages';

type ApiBlock = Exclude<Anthropic.MessageParam['content'], string>[number];

/** One transcript block as the API takes it, or null to leave it out. */
function apiBlock(b: ContentBlock, keepThinking: boolean): ApiBlock | null {
  switch (b.type) {
    case 'text':
      // The API refuses empty text blocks; an interrupted reply may have one.
      return b.text.length > 0 ? { type: 'text', text: b.text } : null;
    case 'thinking':
      // A thinking block goes back only with its signature, and only to the model that signed it.
      return keepThinking && b.signature
        ? { type: 'thinking', thinking: b.thinking, signature: b.signature }
        : null;
    case 'image':
      return { type: 'image', source: b.source };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    case 'tool_result': {
      const block: Anthropic.ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: b.tool_use_id,
        content:
          typeof b.content === 'string'
            ? b.content
            : b.content.map((c) =>
                c.type === 'text'
                  ? { type: 'text' as const, text: c.text }
                  : { type: 'image' as const, source: c.source },
              ),
      };
      if (b.is_error) block.is_error = true;
      return block;
    }
  }
}

/** The message items of a transcript that form the conversation (finished messages only). */
export function conversationOf(items: readonly TranscriptItem[]): MessageItem[] {
  return items.filter((i): i is MessageItem => i.kind === 'message' && i.status !== 'streaming');
}

/**
 * The conversation as the Messages API takes it: finished messages only, empty ones dropped, UI-only
 * fields stripped, and consecutive messages of one role merged (a failed reply leaves two user
 * messages in a row). `keepThinking: false` drops thinking blocks (after a model fallback).
 */
export function toApiMessages(
  messages: readonly MessageItem[],
  keepThinking = true,
): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const item of messages) {
    if (item.status === 'streaming') continue;
    const content = item.content.flatMap((b) => apiBlock(b, keepThinking) ?? []);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === item.role && Array.isArray(last.content)) {
      // Tool results must lead a user message; keep them ahead of merged text.
      const merged = [...last.content, ...content];
      last.content =
        item.role === 'user'
          ? [
              ...merged.filter((b) => b.type === 'tool_result'),
              ...merged.filter((b) => b.type !== 'tool_result'),
            ]
          : merged;
    } else out.push({ role: item.role, content });
  }
  return out;
}
