import Anthropic, {
  APIConnectionError,
  APIError,
  AuthenticationError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedApi, type ScriptedApi } from './server';
import type { ScenarioInput } from './scenario';

let api: ScriptedApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

async function serve(scenario: ScenarioInput) {
  api = await startScriptedApi({ scenario });
  const sdk = new Anthropic({ apiKey: 'k', baseURL: api.url, maxRetries: 2 });
  return { api, sdk };
}

const ask = (text: string) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: text }],
});

describe('scripted Messages API, through the real SDK', () => {
  it('streams text with the real event sequence and cumulative usage', async () => {
    const { sdk } = await serve({
      steps: [
        {
          reply: {
            content: [{ type: 'text', text: 'Hello there, streaming world' }],
            chunkChars: 5,
            usage: { input_tokens: 11, output_tokens: 7 },
          },
        },
      ],
    });
    const types: string[] = [];
    let text = '';
    const stream = await sdk.messages.create({ ...ask('hi'), stream: true });
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    expect(text).toBe('Hello there, streaming world');
    expect(types[0]).toBe('message_start');
    expect(types.filter((t) => t === 'content_block_delta')).toHaveLength(6);
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);

    const final = await sdk.messages
      .stream(ask('again'))
      .finalMessage()
      .catch((e: unknown) => e);
    // The single step was used up: the server says so with a clear 400.
    expect(final).toBeInstanceOf(APIError);
    expect((final as APIError).message).toContain('no scripted reply for request #1');
  });

  it('streams tool_use input as input_json_delta chunks the SDK reassembles', async () => {
    const { sdk } = await serve({
      steps: [
        {
          reply: {
            content: [
              { type: 'text', text: 'Reading.' },
              {
                type: 'tool_use',
                id: 'toolu_1',
                name: 'Read',
                input: { file_path: '/tmp/a.txt', limit: 20 },
              },
            ],
            stop_reason: 'tool_use',
            jsonChunkChars: 4,
          },
        },
      ],
    });
    const message = await sdk.messages.stream(ask('read it')).finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[1]).toEqual({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'Read',
      input: { file_path: '/tmp/a.txt', limit: 20 },
      caller: undefined,
    });
  });

  it('matches steps by the last user text, so concurrent sessions get their own replies', async () => {
    const { sdk, api } = await serve({
      steps: [
        { when: { lastUserText: 'beta' }, reply: { content: [{ type: 'text', text: 'B' }] } },
        { when: { lastUserText: 'alpha' }, reply: { content: [{ type: 'text', text: 'A' }] } },
      ],
    });
    const [a, b] = await Promise.all([sdk.messages.create(ask('alpha')), sdk.messages.create(ask('beta'))]);
    expect(a.content[0]).toMatchObject({ text: 'A' });
    expect(b.content[0]).toMatchObject({ text: 'B' });
    expect(api.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5']);
  });

  it('holds replies mid-stream at a gate until the test opens it', async () => {
    const { sdk, api } = await serve({
      steps: ['one', 'two'].map((name) => ({
        when: { lastUserText: name },
        times: true as const,
        // message_start, content_block_start, ping, then the first text piece goes out before the gate.
        reply: {
          content: [{ type: 'text' as const, text: `${name}: rest` }],
          chunkChars: 5,
          hold: { afterEvents: 4, gate: 'g' },
        },
      })),
    });
    const seen = new Map([
      ['one', ''],
      ['two', ''],
    ]);
    const read = async (name: string) => {
      const stream = await sdk.messages.create({ ...ask(name), stream: true });
      for await (const event of stream)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
          seen.set(name, (seen.get(name) ?? '') + event.delta.text);
    };
    const both = Promise.all([read('one'), read('two')]);
    // A generous wait: on a loaded machine the two streams may take over a second to reach the gate.
    await expect
      .poll(() => Object.fromEntries(seen), { timeout: 10_000 })
      .toEqual({ one: 'one: ', two: 'two: ' });
    // Held: nothing more arrives while the gate is shut.
    await new Promise((r) => setTimeout(r, 100));
    expect(Object.fromEntries(seen)).toEqual({ one: 'one: ', two: 'two: ' });
    api.release('g');
    await both;
    expect(Object.fromEntries(seen)).toEqual({ one: 'one: rest', two: 'two: rest' });
    // An opened gate stays open: a later reply streams straight through.
    await read('one');
    expect(seen.get('one')).toBe('one: restone: rest');
  });

  it('holds an error answer at a gate until the test opens it', async () => {
    const { sdk, api } = await serve({
      steps: [
        {
          reply: {
            error: { status: 400, type: 'invalid_request_error', message: 'late', hold: { gate: 'e' } },
          },
        },
      ],
    });
    let settled = false;
    const answer = sdk.messages.create(ask('x')).finally(() => {
      settled = true;
    });
    const failed = expect(answer).rejects.toMatchObject({ status: 400 });
    // The request has arrived and is waiting at the gate, unanswered.
    await expect.poll(() => api.requests.length).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    api.release('e');
    await failed;
  });

  it('answers errors with status and error.type, as the API does', async () => {
    const { sdk } = await serve({
      steps: [
        { reply: { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } } },
      ],
    });
    const error = await sdk.messages.create(ask('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as APIError).type).toBe('authentication_error');
    expect((error as APIError).status).toBe(401);
  });

  it('sends retry-after, which the SDK honours before succeeding', async () => {
    const { sdk, api } = await serve({
      steps: [
        {
          reply: {
            error: {
              status: 429,
              type: 'rate_limit_error',
              message: 'slow down',
              headers: { 'retry-after-ms': '30' },
            },
          },
        },
        { reply: { content: [{ type: 'text', text: 'ok now' }] } },
      ],
    });
    const message = await sdk.messages.create(ask('x'));
    expect(message.content[0]).toMatchObject({ text: 'ok now' });
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
  });

  it('keeps answering 429 for `times: true`, until the SDK gives up', async () => {
    const { sdk, api } = await serve({
      steps: [
        {
          times: true,
          reply: {
            error: {
              status: 429,
              type: 'rate_limit_error',
              message: 'slow down',
              headers: { 'retry-after-ms': '1' },
            },
          },
        },
      ],
    });
    await expect(sdk.messages.create(ask('x'))).rejects.toBeInstanceOf(RateLimitError);
    expect(api.requests).toHaveLength(3);
  });

  it('can fail after the 200: an SSE error event, or a dropped connection', async () => {
    const { sdk } = await serve({
      steps: [
        {
          reply: {
            content: [{ type: 'text', text: 'partial reply here' }],
            errorEvent: { afterEvents: 3, type: 'overloaded_error', message: 'Overloaded' },
          },
        },
        { reply: { content: [{ type: 'text', text: 'partial reply here' }], dropAfterEvents: 4 } },
      ],
    });
    const sseError = await sdk.messages
      .stream(ask('x'))
      .finalMessage()
      .catch((e: unknown) => e);
    expect(sseError).toBeInstanceOf(APIError);
    expect((sseError as APIError).message).toContain('Overloaded');

    const dropped = await (async () => {
      const stream = await sdk.messages.create({ ...ask('y'), stream: true });
      for await (const event of stream) expect(event.type).toBeTruthy();
    })().catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(Error);
    expect(dropped).not.toBeInstanceOf(APIConnectionError); // mid-body: the SDK does not see a connection error
  });

  it('refuses a wrong API key when the scenario names one', async () => {
    api = await startScriptedApi({
      scenario: {
        apiKey: 'right',
        steps: [{ times: true, reply: { content: [{ type: 'text', text: 'hi' }] } }],
      },
    });
    const wrong = new Anthropic({ apiKey: 'wrong', baseURL: api.url, maxRetries: 0 });
    const right = new Anthropic({ apiKey: 'right', baseURL: api.url, maxRetries: 0 });
    await expect(wrong.messages.create(ask('x'))).rejects.toBeInstanceOf(AuthenticationError);
    await expect(right.messages.create(ask('x'))).resolves.toMatchObject({ role: 'assistant' });
  });

  it('refuses, as the real API does, tool blocks without tools and more than four cache breakpoints', async () => {
    const { sdk } = await serve({
      steps: [{ times: true, reply: { content: [{ type: 'text', text: 'ok' }] } }],
    });
    const history = [
      { role: 'user' as const, content: 'go' },
      {
        role: 'assistant' as const,
        content: [{ type: 'tool_use' as const, id: 't1', name: 'Read', input: {} }],
      },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 't1', content: 'x' }] },
    ];
    const base = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: history };
    await expect(sdk.messages.create(base)).rejects.toThrow(/must define tools/);
    const tools = [{ name: 'Read', input_schema: { type: 'object' as const } }];
    await expect(sdk.messages.create({ ...base, tools })).resolves.toMatchObject({ role: 'assistant' });
    const marked = (text: string) => ({
      type: 'text' as const,
      text,
      cache_control: { type: 'ephemeral' as const },
    });
    await expect(
      sdk.messages.create({
        ...ask('hi'),
        system: [marked('a'), marked('b'), marked('c'), marked('d'), marked('e')],
      }),
    ).rejects.toThrow(/maximum of 4 blocks with cache_control/);
  });
});

describe('scripted server tools', () => {
  it('streams server_tool_use and web_search_tool_result blocks the SDK assembles into its final message', async () => {
    const { sdk } = await serve({
      steps: [
        {
          reply: {
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
              {
                type: 'web_search_tool_result',
                tool_use_id: 'srvtoolu_1',
                content: [{ type: 'web_search_result', url: 'https://example.com/', title: 'Example' }],
              },
              { type: 'text', text: 'Found it.' },
            ],
            usage: { input_tokens: 10, output_tokens: 3, server_tool_use: { web_search_requests: 1 } },
          },
        },
      ],
    });
    const message = await sdk.messages.stream(ask('search')).finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(message.content[0]).toMatchObject({ id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } });
    expect(message.content[1]).toMatchObject({
      tool_use_id: 'srvtoolu_1',
      content: [{ type: 'web_search_result', url: 'https://example.com/', title: 'Example', page_age: null }],
    });
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1 });
  });
});
