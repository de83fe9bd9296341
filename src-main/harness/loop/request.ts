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

/**
 * The request, assembled fresh each iteration. Prompt-cache breakpoints sit on the system prompt and
 * the last tool definition, so the stable prefix (tools → system) is cached across turns.
 */
export function buildRequest(parts: RequestParts): ModelRequest {
  const tools = parts.tools.map(toolDefinition);
  const last = tools.at(-1);
  if (last) last.cache_control = { type: 'ephemeral' };
  const request: ModelRequest = {
    model: parts.model,
    maxTokens: parts.maxTokens,
    system: [{ type: 'text', text: parts.systemPrompt, cache_control: { type: 'ephemeral' } }],
    messages: toApiMessages(parts.messages, parts.keepThinking),
  };
  if (tools.length > 0) request.tools = tools;
  return request;
}
