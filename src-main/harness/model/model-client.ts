import type Anthropic from '@anthropic-ai/sdk';

export type ApiMessageParam = Anthropic.MessageParam;
export type RawStreamEvent = Anthropic.RawMessageStreamEvent;

export interface ModelRequest {
  model: string;
  messages: ApiMessageParam[];
  maxTokens: number;
  system?: string | Anthropic.TextBlockParam[];
  /** Client tools, or a server tool such as web search (WebSearch's side request). */
  tools?: Anthropic.ToolUnion[];
}

/**
 * The harness's only door to a model. It yields the raw Messages API stream events; retries for
 * 408/409/429/5xx and connection resets happen underneath (the SDK's policy, honouring retry-after).
 * Aborting `signal` ends the iteration with an abort error.
 */
export interface ModelClient {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<RawStreamEvent>;
}

/** Picks the client for a model id: the demo model and real Claude models live behind different doors. */
export interface ModelRouter {
  clientFor(model: string): ModelClient;
}
