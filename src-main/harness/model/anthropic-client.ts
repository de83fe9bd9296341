import Anthropic from '@anthropic-ai/sdk';
import type { ModelClient, ModelRequest, RawStreamEvent } from './model-client';

export interface AnthropicClientOptions {
  apiKey: string;
  baseURL?: string | undefined;
  maxRetries?: number;
  timeoutMs?: number;
}

/** A ModelClient over the real `@anthropic-ai/sdk`, streaming with `messages.create({stream: true})`. */
export class AnthropicModelClient implements ModelClient {
  private readonly sdk: Anthropic;

  constructor(options: AnthropicClientOptions) {
    this.sdk = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? null,
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeoutMs ?? 10 * 60 * 1000,
    });
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<RawStreamEvent> {
    const params: Anthropic.MessageCreateParamsStreaming = {
      model: request.model,
      max_tokens: request.maxTokens,
      messages: request.messages,
      stream: true,
    };
    if (request.system !== undefined) params.system = request.system;
    if (request.tools !== undefined) params.tools = request.tools;
    const stream = await this.sdk.messages.create(params, { signal });
    for await (const event of stream) yield event;
  }
}
