import type { ContentBlock, MessageItem } from '@shared/domain/messages';
import type { TranscriptLine } from './transcript-file';

/**
 * The replies the app died in: pieces kept as they streamed (`partial` lines) whose reply never got
 * its `item` line and was not withdrawn. Each comes back as an interrupted message with what arrived;
 * a reply with nothing in it is left out.
 */
export function interruptedReplies(lines: readonly TranscriptLine[]): MessageItem[] {
  const kept = new Set<string>();
  const replies = new Map<
    string,
    { model: string; blocks: Map<number, ContentBlock>; withdrawn: boolean; at: number }
  >();
  lines.forEach((line, at) => {
    if (line.type === 'item') kept.add(line.item.id);
    if (line.type !== 'partial') return;
    let reply = replies.get(line.itemId);
    if (!reply) {
      reply = { model: line.model, blocks: new Map(), withdrawn: false, at };
      replies.set(line.itemId, reply);
    }
    if (line.withdrawn) reply.withdrawn = true;
    if (line.toolUse) reply.blocks.set(line.index, line.toolUse);
    else if (line.text !== undefined) {
      const block = reply.blocks.get(line.index);
      reply.blocks.set(line.index, {
        type: 'text',
        text: (block?.type === 'text' ? block.text : '') + line.text,
      });
    }
  });
  const out: MessageItem[] = [];
  for (const [id, reply] of replies) {
    if (kept.has(id) || reply.withdrawn) continue;
    // A map by index, not an array: the indices come from a file, and a sparse array sized by the
    // largest one would cost its length however few blocks there are.
    const content = [...reply.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, block]) => block)
      .filter((b) => b.type !== 'text' || b.text.trim() !== '');
    if (content.length === 0) continue;
    // The API refuses an assistant message that ends in white space.
    const last = content.at(-1);
    if (last?.type === 'text') content[content.length - 1] = { type: 'text', text: last.text.trimEnd() };
    out.push({
      kind: 'message',
      id,
      role: 'assistant',
      content,
      createdAt: new Date().toISOString(),
      status: 'interrupted',
      model: reply.model,
    });
  }
  return out;
}

/** Whether the last turn the lines record began and never ended: the app died during it. */
export function turnUnfinished(lines: readonly TranscriptLine[]): boolean {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line?.type === 'turn') return line.phase === 'start';
  }
  return false;
}

/**
 * What a retry takes out of the context: a reply that did not finish (interrupted or failed) at the
 * end, with the "interrupted" results closing its tool calls. The retry then asks again from the
 * person's message (or the last tool results) rather than from half an answer.
 */
export function failedTail(context: readonly MessageItem[]): MessageItem[] {
  const tail: MessageItem[] = [];
  let i = context.length - 1;
  const last = context[i];
  if (last?.role === 'user' && last.origin === 'interrupt') {
    const before = context[i - 1];
    if (before?.role !== 'assistant' || before.status === 'complete') return [];
    tail.unshift(last);
    i--;
  }
  const reply = context[i];
  if (reply?.role === 'assistant' && (reply.status === 'interrupted' || reply.status === 'error'))
    tail.unshift(reply);
  return tail.length > 0 && tail[0]?.role === 'assistant' ? tail : [];
}
