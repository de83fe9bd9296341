import { DEMO_MODEL_ID } from '@shared/domain/models';
import { AnthropicModelClient } from './anthropic-client';
import type { ModelClient, ModelRouter } from './model-client';

export interface CredentialSource {
  credentials(): { apiKey: string | null; baseUrl: string | null };
}

export class MissingCredentialsError extends Error {
  constructor() {
    super(
      'No API key is set. Set ANTHROPIC_API_KEY or add a key in Settings; the Demo model works without one.',
    );
    this.name = 'MissingCredentialsError';
  }
}

/** A stream that fails on its first read, before any event. */
function failingStream(error: Error): AsyncIterable<never> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}

const MISSING_CREDENTIALS: ModelClient = {
  stream: () => failingStream(new MissingCredentialsError()),
};

/**
 * Routes the demo model to its in-process scripted server and everything else to the Anthropic API
 * (or the configured base URL). Clients are rebuilt when the key or base URL changes.
 */
export class DefaultModelRouter implements ModelRouter {
  private cached: { key: string; client: ModelClient } | null = null;

  constructor(
    private readonly credentials: CredentialSource,
    private readonly demo: ModelClient,
  ) {}

  clientFor(model: string): ModelClient {
    if (model === DEMO_MODEL_ID) return this.demo;
    const { apiKey, baseUrl } = this.credentials.credentials();
    if (apiKey === null && baseUrl === null) return MISSING_CREDENTIALS;
    const cacheKey = `${apiKey ?? ''}\n${baseUrl ?? ''}`;
    if (this.cached?.key !== cacheKey) {
      // A base URL without a key is a local server or gateway that takes none; the SDK still wants one.
      this.cached = {
        key: cacheKey,
        // maxRetries 0: the query loop retries itself, visibly, with one policy for every error.
        client: new AnthropicModelClient({
          apiKey: apiKey ?? 'no-key-configured',
          baseURL: baseUrl ?? undefined,
          maxRetries: 0,
        }),
      };
    }
    return this.cached.client;
  }
}
