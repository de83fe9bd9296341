import { randomUUID } from 'node:crypto';
import type { ContentBlock, MessageItem, NoticeItem } from '@shared/domain/messages';
import { ZERO_USAGE } from '@shared/domain/usage';
import { notice } from './engine-notes';
import type { TurnResult } from './engine-options';

// The items a user turn opens with: what its UserPromptSubmit hooks said, the person's message, and
// the user-role notes that ride with it (a new day, the hooks' context).

/** What UserPromptSubmit hooks answered (hooks/wire.ts). */
export interface PromptHookAnswer {
  blocked: string | null;
  context: string | null;
  messages: string[];
}

/** The prompt as the hooks read it: an image-bearing prompt's text blocks, one a line. */
export function promptText(prompt: string | ContentBlock[]): string {
  return typeof prompt === 'string'
    ? prompt
    : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** The hooks' messages as warnings, and the refusal last when one blocked the prompt. */
export function hookAnswerNotes(answer: PromptHookAnswer): NoticeItem[] {
  const notes = answer.messages.map((message) => notice('warning', message, 'hook'));
  if (answer.blocked !== null) notes.push(notice('warning', blockedDetail(answer.blocked), 'hook'));
  return notes;
}

function blockedDetail(blocked: string): string {
  return `A UserPromptSubmit hook blocked the prompt: ${blocked}`;
}

/** A turn a hook refused: it completed without a request, the prompt neither sent nor kept. */
export function blockedResult(sessionId: string, blocked: string, durationMs: number): TurnResult {
  return {
    sessionId,
    terminal: { reason: 'completed', detail: blockedDetail(blocked) },
    text: '',
    numTurns: 0,
    durationMs: Math.round(durationMs),
    durationApiMs: 0,
    usage: ZERO_USAGE,
    permissionDenials: [],
    error: null,
  };
}

/**
 * The person's message, then a note that the date has changed (when it has since the model was
 * last told) and the hooks' context.
 */
export function openingMessages(
  prompt: string | ContentBlock[],
  notes: { dateChange: string | null; hookContext: string | null },
): MessageItem[] {
  const message = (origin: MessageItem['origin'], content: ContentBlock[]): MessageItem => ({
    kind: 'message',
    id: randomUUID(),
    role: 'user',
    origin,
    content,
    createdAt: new Date().toISOString(),
    status: 'complete',
  });
  const items = [message('user', typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt)];
  for (const text of [notes.dateChange, notes.hookContext])
    if (text !== null) items.push(message('nudge', [{ type: 'text', text }]));
  return items;
}
