import type { ModelClient, ModelRequest, RawStreamEvent } from '../harness/model/model-client';
import { AnthropicModelClient } from '../harness/model/anthropic-client';
import { lastUserText, type RecordedRequest } from './scripted-api/request';
import { textReply, type Responder } from './scripted-api/responder';
import { startScriptedApi, type ScriptedApi } from './scripted-api/server';

const CODE_SAMPLE = [
  '```ts',
  'function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '```',
].join('\n');

/**
 * The demo model's replies: honest about what it is, and long enough to show streaming.
 * It echoes the prompt, so several tabs visibly get their own answers.
 */
export function demoResponder(delayMs = 18): Responder {
  return (request: RecordedRequest) => {
    const prompt = lastUserText(request.body).trim();
    const quoted = prompt.length > 300 ? `${prompt.slice(0, 300)}…` : prompt;
    const turns = Math.ceil((request.body.messages?.length ?? 1) / 2);
    const parts = [
      `This is the **Demo model**, a scripted stand-in that runs inside Carapace so you can try the workspace without an API key. It costs nothing and does not think.`,
      '',
      `You wrote (message ${turns} of this session):`,
      '',
      `> ${quoted.replace(/\n/g, '\n> ')}`,
      '',
    ];
    if (/code|function|example/i.test(prompt))
      parts.push('Here is some code, to show how blocks render:', '', CODE_SAMPLE, '');
    parts.push(
      'To talk to Claude, set `ANTHROPIC_API_KEY` before starting Carapace, or add a key in **Settings**; new sessions then use the real API.',
    );
    return textReply(parts.join('\n'), { chunkChars: 6, delayMs });
  };
}

/**
 * A ModelClient for the demo model: starts the scripted server in-process on first use and talks to it
 * through the real SDK, exactly as a real model would be reached.
 */
export class DemoModelClient implements ModelClient {
  private server: Promise<{ api: ScriptedApi; client: AnthropicModelClient }> | null = null;

  constructor(private readonly delayMs = 18) {}

  private start(): Promise<{ api: ScriptedApi; client: AnthropicModelClient }> {
    this.server ??= startScriptedApi({ scenario: demoResponder(this.delayMs) }).then((api) => ({
      api,
      client: new AnthropicModelClient({ apiKey: 'demo', baseURL: api.url, maxRetries: 0 }),
    }));
    return this.server;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<RawStreamEvent> {
    const { client } = await this.start();
    yield* client.stream(request, signal);
  }

  async close(): Promise<void> {
    if (this.server) await (await this.server).api.close();
    this.server = null;
  }
}
