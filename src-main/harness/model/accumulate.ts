import type { ContentBlock, ToolUseBlock } from '@shared/domain/messages';
import type { TokenUsage } from '@shared/domain/usage';
import type { RawStreamEvent } from './model-client';

/** A message as it builds up from stream events; complete once `message_stop` has been seen. */
export interface AccumulatedMessage {
  id: string | null;
  model: string | null;
  content: ContentBlock[];
  stopReason: string | null;
  usage: TokenUsage;
  /** Cache writes billed at the 1-hour rate, and server-side web searches: priced separately. */
  cacheWrite1hTokens: number;
  webSearchRequests: number;
  complete: boolean;
}

export type AccumulatorDelta =
  | { kind: 'text'; index: number; text: string }
  /** A tool_use block finished streaming; `inputProblem` is set when its JSON could not be parsed. */
  | { kind: 'tool_use'; block: ToolUseBlock; inputProblem?: string };

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
    cacheWrite1hTokens: 0,
    webSearchRequests: 0,
    complete: false,
  };
  private readonly partialJson = new Map<number, string>();
  private readonly finishedBlocks = new Set<number>();

  /** The content so far without tool_use blocks that never finished (what can be kept of a cut-off reply). */
  get finishedContent(): ContentBlock[] {
    return this.message.content.filter((b, i) => b.type !== 'tool_use' || this.finishedBlocks.has(i));
  }

  /** Applies one event; returns the visible delta it carried, if any. */
  apply(event: RawStreamEvent): AccumulatorDelta | null {
    const m = this.message;
    switch (event.type) {
      case 'message_start':
        m.id = event.message.id;
        m.model = event.message.model;
        m.usage = toUsage(event.message.usage);
        this.applyExtras(event.message.usage);
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
        this.finishedBlocks.add(event.index);
        if (block?.type !== 'tool_use') return null;
        const json = this.partialJson.get(event.index) ?? '';
        this.partialJson.delete(event.index);
        try {
          const input: unknown = json.trim() === '' ? {} : JSON.parse(json);
          if (typeof input !== 'object' || input === null || Array.isArray(input))
            throw new Error('the input is not a JSON object');
          block.input = input as Record<string, unknown>;
          return { kind: 'tool_use', block };
        } catch (error) {
          // A malformed tool call becomes an error result the model can read, not an exception.
          return {
            kind: 'tool_use',
            block,
            inputProblem: `the tool input was not valid JSON (${(error as Error).message})`,
          };
        }
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
        this.applyExtras(u);
        return null;
      }
      case 'message_stop':
        m.complete = true;
        return null;
      default:
        return null;
    }
  }

  private applyExtras(u: object): void {
    const usage = u as {
      cache_creation?: { ephemeral_1h_input_tokens?: number } | null;
      server_tool_use?: { web_search_requests?: number } | null;
    };
    if (usage.cache_creation?.ephemeral_1h_input_tokens !== undefined)
      this.message.cacheWrite1hTokens = usage.cache_creation.ephemeral_1h_input_tokens;
    if (usage.server_tool_use?.web_search_requests !== undefined)
      this.message.webSearchRequests = usage.server_tool_use.web_search_requests;
  }
}
