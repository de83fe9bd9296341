import type { ContentBlock } from '@shared/domain/messages';
import type { TokenUsage } from '@shared/domain/usage';
import type { RawStreamEvent } from './model-client';

/** A message as it builds up from stream events; complete once `message_stop` has been seen. */
export interface AccumulatedMessage {
  id: string | null;
  model: string | null;
  content: ContentBlock[];
  stopReason: string | null;
  usage: TokenUsage;
  complete: boolean;
}

export type AccumulatorDelta = { kind: 'text'; index: number; text: string };

function toUsage(u: {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): TokenUsage {
  return {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: u.cache_read_input_tokens ?? 0,
  };
}

/**
 * Folds raw stream events into a message. Tool input JSON is concatenated and parsed at
 * `content_block_stop`, as the API requires; usage is taken from `message_start` and then overwritten
 * field by field by the cumulative `message_delta`. Unknown events are ignored (API versioning policy).
 */
export class MessageAccumulator {
  readonly message: AccumulatedMessage = {
    id: null,
    model: null,
    content: [],
    stopReason: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    complete: false,
  };
  private readonly partialJson = new Map<number, string>();

  /** Applies one event; returns the visible delta it carried, if any. */
  apply(event: RawStreamEvent): AccumulatorDelta | null {
    const m = this.message;
    switch (event.type) {
      case 'message_start':
        m.id = event.message.id;
        m.model = event.message.model;
        m.usage = toUsage(event.message.usage);
        return null;
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'text') m.content[event.index] = { type: 'text', text: '' };
        else if (b.type === 'thinking') m.content[event.index] = { type: 'thinking', thinking: '' };
        else if (b.type === 'tool_use') {
          m.content[event.index] = { type: 'tool_use', id: b.id, name: b.name, input: {} };
          this.partialJson.set(event.index, '');
        }
        return null;
      }
      case 'content_block_delta': {
        const block = m.content[event.index];
        const d = event.delta;
        if (d.type === 'text_delta' && block?.type === 'text') {
          block.text += d.text;
          return { kind: 'text', index: event.index, text: d.text };
        }
        if (d.type === 'thinking_delta' && block?.type === 'thinking') block.thinking += d.thinking;
        else if (d.type === 'signature_delta' && block?.type === 'thinking') block.signature = d.signature;
        else if (d.type === 'input_json_delta') {
          this.partialJson.set(event.index, (this.partialJson.get(event.index) ?? '') + d.partial_json);
        }
        return null;
      }
      case 'content_block_stop': {
        const block = m.content[event.index];
        const json = this.partialJson.get(event.index);
        if (block?.type === 'tool_use' && json !== undefined) {
          block.input = json.trim() === '' ? {} : (JSON.parse(json) as Record<string, unknown>);
          this.partialJson.delete(event.index);
        }
        return null;
      }
      case 'message_delta': {
        m.stopReason = event.delta.stop_reason;
        const u = event.usage;
        m.usage = {
          inputTokens: u.input_tokens ?? m.usage.inputTokens,
          outputTokens: u.output_tokens,
          cacheCreationInputTokens: u.cache_creation_input_tokens ?? m.usage.cacheCreationInputTokens,
          cacheReadInputTokens: u.cache_read_input_tokens ?? m.usage.cacheReadInputTokens,
        };
        return null;
      }
      case 'message_stop':
        m.complete = true;
        return null;
      default:
        return null;
    }
  }
}
