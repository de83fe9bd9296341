import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { MessageItem } from '@shared/domain/messages';
import { toApiMessages } from '../model/api-messages';
import type { ModelRequest } from '../model/model-client';
import type { AnyTool } from '../tools/tool';

/** A tool's definition as the API takes it: name, description, JSON Schema of its zod input. */
export function toolDefinition(tool: AnyTool): Anthropic.Tool {
  const schema = z.toJSONSchema(tool.inputSchema) as Record<string, unknown>;
  delete schema['$schema'];
  return {
    name: tool.name,
    description: tool.description,
    input_schema: schema as Anthropic.Tool['input_schema'],
  };
}

export interface RequestParts {
  model: string;
  systemPrompt: string;
  tools: readonly AnyTool[];
  messages: readonly MessageItem[];
  maxTokens: number;
  /** False after a fallback: the new model cannot verify the old one's thinking signatures. */
  keepThinking: boolean;
}

/** The API's limit: a request with more `cache_control` markers than this is refused (HTTP 400). */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * The request, assembled fresh each iteration. Three prompt-cache breakpoints, in prefix order:
 * the last tool definition, the system prompt, and the last block of the last message. The first two
 * cover the prefix that never changes within a session (tools → system; nothing volatile rides there:
 * what changes goes into messages). The third moves forward every request, as Claude Code's does:
 * request k+1 repeats request k's messages unchanged and reads them from the cache up to where
 * request k's marker was (the marker itself is not part of the cached content, so moving it changes
 * nothing before it), then writes a new entry at its own end.
 */
export function buildRequest(parts: RequestParts): ModelRequest {
  const tools = parts.tools.map(toolDefinition);
  const last = tools.at(-1);
  if (last) last.cache_control = EPHEMERAL;
  const messages = toApiMessages(parts.messages, parts.keepThinking);
  markLastMessage(messages);
  const request: ModelRequest = {
    model: parts.model,
    maxTokens: parts.maxTokens,
    system: [{ type: 'text', text: parts.systemPrompt, cache_control: EPHEMERAL }],
    messages,
  };
  if (tools.length > 0) request.tools = tools;
  return request;
}

/**
 * Puts the moving breakpoint on the last message's last block that can carry one (not thinking, not
 * empty text). `messages` is the request's own copy (toApiMessages builds new blocks).
 */
function markLastMessage(messages: ModelRequest['messages']): void {
  const message = messages.at(-1);
  if (!message) return;
  if (typeof message.content === 'string') {
    if (message.content.length === 0) return;
    message.content = [{ type: 'text', text: message.content, cache_control: EPHEMERAL }];
    return;
  }
  const block = message.content.findLast(
    (b) => b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text === ''),
  );
  if (block) (block as { cache_control?: unknown }).cache_control = EPHEMERAL;
}

/** How many `cache_control` markers a part of a request carries (at any depth). */
export function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + countBreakpoints(v), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (n, [k, v]) => n + (k === 'cache_control' ? 1 : countBreakpoints(v)),
    0,
  );
}

/** A deep copy without `cache_control` markers: what the cache compares (the content, not the markers). */
export function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'cache_control')
      .map(([k, v]) => [k, withoutCacheControl(v)]),
  );
}
