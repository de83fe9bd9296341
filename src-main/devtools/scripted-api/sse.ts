import { randomBytes } from 'node:crypto';
import type { ContentSpec, MessageReply, ScriptedUsage } from './scenario';
import { estimateTokens } from './request';

export interface SseEvent {
  event: string;
  data: unknown;
}

export function encodeSse(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  // Split on code points, never inside a surrogate pair.
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function outputChars(content: ContentSpec[]): number {
  let n = 0;
  for (const block of content) {
    if (block.type === 'text') n += block.text.length;
    else if (block.type === 'thinking') n += block.thinking.length;
    // A search result is input the API read, not output it wrote.
    else if (block.type !== 'web_search_tool_result') n += JSON.stringify(block.input).length;
  }
  return n;
}

function blockEvents(block: ContentSpec, index: number, reply: MessageReply): SseEvent[] {
  const events: SseEvent[] = [];
  const delta = (d: unknown) =>
    events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
  if (block.type === 'text') {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    });
    for (const piece of chunks(block.text, reply.chunkChars)) delta({ type: 'text_delta', text: piece });
  } else if (block.type === 'thinking') {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } },
    });
    for (const piece of chunks(block.thinking, reply.chunkChars))
      delta({ type: 'thinking_delta', thinking: piece });
    delta({ type: 'signature_delta', signature: block.signature ?? randomBytes(24).toString('base64') });
  } else if (block.type === 'web_search_tool_result') {
    // Arrives whole in its content_block_start, with no deltas.
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: block },
    });
  } else {
    const id = block.id ?? newId(block.type === 'server_tool_use' ? 'srvtoolu' : 'toolu');
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: block.type, id, name: block.name, input: {} },
      },
    });
    // The API's first input_json_delta is often empty; clients must cope.
    delta({ type: 'input_json_delta', partial_json: '' });
    for (const piece of chunks(JSON.stringify(block.input), reply.jsonChunkChars)) {
      delta({ type: 'input_json_delta', partial_json: piece });
    }
  }
  events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  return events;
}

/** The full usage a reply reports: the scenario's, or an estimate from the text sizes. */
export function replyUsage(reply: MessageReply, inputChars: number): ScriptedUsage {
  return (
    reply.usage ?? {
      input_tokens: estimateTokens('x'.repeat(inputChars)),
      output_tokens: estimateTokens('x'.repeat(outputChars(reply.content))),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    }
  );
}

/** Every SSE event of one streamed reply, in the order the real API sends them. */
export function replyEvents(reply: MessageReply, model: string, usage: ScriptedUsage): SseEvent[] {
  const startUsage = {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    ...(usage.cache_creation ? { cache_creation: usage.cache_creation } : {}),
    output_tokens: 1,
  };
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: reply.id ?? newId('msg'),
          type: 'message',
          role: 'assistant',
          content: [],
          model: reply.model ?? model,
          stop_reason: null,
          stop_sequence: null,
          usage: startUsage,
        },
      },
    },
  ];
  reply.content.forEach((block, index) => {
    const blockEvs = blockEvents(block, index, reply);
    events.push(...blockEvs.slice(0, 1));
    if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } });
    events.push(...blockEvs.slice(1));
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: reply.stop_reason, stop_sequence: null },
      // The final message_delta carries cumulative usage.
      usage: {
        ...startUsage,
        output_tokens: usage.output_tokens,
        ...(usage.server_tool_use ? { server_tool_use: usage.server_tool_use } : {}),
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** The same reply as a non-streaming response body. */
export function replyJson(reply: MessageReply, model: string, usage: ScriptedUsage): unknown {
  return {
    id: reply.id ?? newId('msg'),
    type: 'message',
    role: 'assistant',
    model: reply.model ?? model,
    content: reply.content.map((b) =>
      b.type === 'tool_use' || b.type === 'server_tool_use'
        ? { type: b.type, id: b.id ?? newId('toolu'), name: b.name, input: b.input }
        : b,
    ),
    stop_reason: reply.stop_reason,
    stop_sequence: null,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
      ...(usage.server_tool_use ? { server_tool_use: usage.server_tool_use } : {}),
    },
  };
}
