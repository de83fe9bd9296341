import { describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '@shared/domain/messages';
import type { AgentEvent } from '../events/agent-event';
import { text, toolUse } from '../../test-support/engine';
import { testRuntime } from '../../test-support/runtime';

/*
 * WebSearch in a whole runtime against the scripted Messages API: the tool's side request carries the
 * server-side web_search tool, the scripted reply streams server_tool_use and web_search_tool_result
 * blocks as the API does, and the search is priced per request in the session's cost.
 */

const SMALL = 'claude-haiku-4-5';

const results = (events: readonly AgentEvent[]): ToolResultBlock[] =>
  events.flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));

const resultText = (b: ToolResultBlock | undefined): string =>
  typeof b?.content === 'string'
    ? b.content
    : (b?.content.map((c) => (c.type === 'text' ? c.text : '')).join('') ?? '');

const searchReply = {
  content: [
    {
      type: 'server_tool_use' as const,
      id: 'srvtoolu_1',
      name: 'web_search',
      input: { query: 'carapace release' },
    },
    {
      type: 'web_search_tool_result' as const,
      tool_use_id: 'srvtoolu_1',
      content: [
        { type: 'web_search_result' as const, url: 'https://example.com/release', title: 'Release notes' },
        { type: 'web_search_result' as const, url: 'https://example.com/blog', title: 'Blog: "1.0"' },
      ],
    },
    text('Carapace 1.0 was released in November.'),
  ],
  usage: { input_tokens: 2000, output_tokens: 50, server_tool_use: { web_search_requests: 1 } },
};

describe('WebSearch in a runtime', () => {
  it('searches through the server-side tool with the domain filter, returns titles, links and text, and prices the search', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'look it up' },
          reply: {
            content: [
              toolUse('WebSearch', { query: 'carapace release', allowed_domains: ['example.com'] }, 's1'),
            ],
            stop_reason: 'tool_use',
          },
        },
        { when: { model: SMALL, lastUserText: 'Perform a web search' }, reply: searchReply },
        { when: { lastUserText: 'Web search results' }, reply: { content: [text('Released in November.')] } },
      ],
    });
    const { events, result } = await t.run('look it up');

    expect(result.text).toBe('Released in November.');
    const search = t.api.requests.find((r) => r.body.model === SMALL);
    expect(search?.body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['example.com'] },
    ]);
    expect(JSON.stringify(search?.body.messages)).toContain(
      'Perform a web search for the query: carapace release',
    );
    const found = results(events)[0];
    expect(found?.is_error).toBeFalsy();
    expect(resultText(found)).toBe(
      [
        'Web search results for query: "carapace release"',
        'Links: [{"title":"Release notes","url":"https://example.com/release"},{"title":"Blog: \\"1.0\\"","url":"https://example.com/blog"}]',
        'Carapace 1.0 was released in November.',
        'REMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.',
      ].join('\n\n'),
    );
    // Haiku 4.5 at $1 / $5 per million tokens, and $10 per 1,000 searches.
    const haiku = t.runtime.engine.cost.modelUsage()[SMALL];
    expect(haiku?.webSearchRequests).toBe(1);
    expect(haiku?.costUSD).toBeCloseTo((2000 * 1 + 50 * 5) / 1e6 + 0.01, 9);
  });

  it('passes blocked_domains, and reports a search the API could not make as an error', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'look it up' },
          reply: {
            content: [toolUse('WebSearch', { query: 'anything', blocked_domains: ['spam.example'] }, 's1')],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { model: SMALL },
          reply: {
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_search', input: { query: 'anything' } },
              {
                type: 'web_search_tool_result',
                tool_use_id: 'srvtoolu_2',
                content: { type: 'web_search_tool_result_error', error_code: 'too_many_requests' },
              },
            ],
          },
        },
        { when: { lastUserText: 'too_many_requests' }, reply: { content: [text('Search failed.')] } },
      ],
    });
    const { events } = await t.run('look it up');
    const search = t.api.requests.find((r) => r.body.model === SMALL);
    expect(search?.body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, blocked_domains: ['spam.example'] },
    ]);
    const failed = results(events)[0];
    expect(failed?.is_error).toBe(true);
    expect(resultText(failed)).toContain('Web search error: too_many_requests');
  });

  it('refuses allowed_domains with blocked_domains before any request', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'look it up' },
          reply: {
            content: [
              toolUse(
                'WebSearch',
                { query: 'x y', allowed_domains: ['a.com'], blocked_domains: ['b.com'] },
                's1',
              ),
            ],
            stop_reason: 'tool_use',
          },
        },
        { when: { lastUserText: 'not both' }, reply: { content: [text('ok')] } },
      ],
    });
    const { events } = await t.run('look it up');
    expect(resultText(results(events)[0])).toBe(
      'WebSearch takes allowed_domains or blocked_domains, not both in one search.',
    );
    expect(t.api.requests.some((r) => r.body.model === SMALL)).toBe(false);
  });
});
