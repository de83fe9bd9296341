import { randomUUID } from 'node:crypto';
import type { MessageItem, ToolResultBlock, TranscriptItem } from '@shared/domain/messages';
import { foldBefore } from '../loop/collapse';
import { linesAfterCuts } from './cut-lines';
import type { TranscriptLine } from './transcript-file';

/**
 * The context window a resumed session continues with, replayed from its transcript lines: every
 * finished message, with each recorded collapse and compaction applied where it happened, and each
 * rewind's cut.
 */
export function contextFromLines(lines: readonly TranscriptLine[]): MessageItem[] {
  let context: MessageItem[] = [];
  // A rewind's cut takes its message and all after it out (cut-lines.ts).
  for (const line of linesAfterCuts(lines)) {
    if (line.type === 'item' && line.item.kind === 'message' && line.item.status !== 'streaming')
      context.push(line.item);
    else if (line.type === 'context') {
      const at =
        line.keepFromId === null ? context.length : context.findIndex((m) => m.id === line.keepFromId);
      const cut = at < 0 ? context.length : at;
      context =
        line.how === 'collapse'
          ? foldBefore(context, cut).messages
          : [...(line.summary ? [line.summary] : []), ...context.slice(cut)];
    } else if (line.type === 'rewind') {
      const dropped = new Set(line.dropIds);
      context = context.filter((m) => !dropped.has(m.id));
    }
  }
  return context;
}

/**
 * Tool calls that never got a result (the app stopped mid-turn): a message of "interrupted" results
 * for them, so the conversation is valid for the API again. Null when nothing dangles.
 */
export function closeDanglingToolUses(items: readonly TranscriptItem[]): MessageItem | null {
  const answered = new Set<string>();
  const asked: { id: string }[] = [];
  for (const item of items) {
    if (item.kind !== 'message') continue;
    for (const b of item.content) {
      if (b.type === 'tool_use' && item.role === 'assistant') asked.push({ id: b.id });
      if (b.type === 'tool_result') answered.add(b.tool_use_id);
    }
  }
  const open = asked.filter((a) => !answered.has(a.id));
  if (open.length === 0) return null;
  const content: ToolResultBlock[] = open.map((a) => ({
    type: 'tool_result',
    tool_use_id: a.id,
    content: 'Interrupted: the session was stopped before this tool call finished.',
    is_error: true,
  }));
  return {
    kind: 'message',
    id: randomUUID(),
    role: 'user',
    origin: 'interrupt',
    content,
    createdAt: new Date().toISOString(),
    status: 'complete',
  };
}
