/** The part of a Messages API request body the scripted server reads. */
export interface RecordedRequest {
  index: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: MessagesRequestBody;
  receivedAt: number;
}

export interface MessagesRequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: unknown;
  messages?: { role: string; content: unknown }[];
  tools?: { name: string }[];
  [key: string]: unknown;
}

function blockText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '';
  const b = block as { type?: unknown; text?: unknown; content?: unknown };
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'tool_result') {
    if (typeof b.content === 'string') return b.content;
    if (Array.isArray(b.content)) return b.content.map(blockText).join('');
  }
  return '';
}

export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(blockText).join('');
  return '';
}

/** Text of the last message with role user (tool results included), the usual thing to match on. */
export function lastUserText(body: MessagesRequestBody): string {
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return contentText(m.content);
  }
  return '';
}

/** A rough token estimate (4 characters a token) for scenarios that give no usage. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function requestChars(body: MessagesRequestBody): number {
  let n = typeof body.system === 'string' ? body.system.length : JSON.stringify(body.system ?? '').length;
  for (const m of body.messages ?? []) n += contentText(m.content).length;
  return n;
}
