import { z } from 'zod';
import description from './prompts/web-search.md?raw';
import { buildTool, type ToolOutput } from './tool';
import { formatSearchResults, SearchResultCollector } from './web/search-results';

const domainList = z.array(z.string().min(1)).optional();

const inputSchema = z.strictObject({
  query: z.string().min(2).describe('The search query to use'),
  allowed_domains: domainList.describe('Only include search results from these domains'),
  blocked_domains: domainList.describe('Never include search results from these domains'),
});

/** Searches one call may make (each is billed); the API stops there with `max_uses_exceeded`. */
export const MAX_SEARCHES_PER_CALL = 8;
const SEARCH_MAX_TOKENS = 4096;
const SEARCH_SYSTEM_PROMPT = 'You are an assistant for performing a web search tool use';

/**
 * WebSearch `{query, allowed_domains?, blocked_domains?}`: one side request to the small model with
 * the API's server-side web search tool (`web_search_20250305`); the API runs the searches and streams
 * their results, which come back to the agent as titles and URLs with the searching model's text.
 * The searches are billed per request: the usage's `server_tool_use.web_search_requests` is counted
 * in the session's cost with the side request's tokens.
 */
export const WebSearchTool = buildTool({
  name: 'WebSearch',
  description,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // eslint-disable-next-line require-yield -- one request, one result
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const side = ctx.sideModel;
    if (!side)
      return { content: 'WebSearch cannot run here: this agent has no model to search with.', isError: true };
    const allowed = input.allowed_domains ?? [];
    const blocked = input.blocked_domains ?? [];
    if (allowed.length > 0 && blocked.length > 0)
      return {
        content: 'WebSearch takes allowed_domains or blocked_domains, not both in one search.',
        isError: true,
      };
    const collector = new SearchResultCollector();
    const message = await side.request(
      {
        model: side.smallModel,
        maxTokens: SEARCH_MAX_TOKENS,
        system: SEARCH_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: `Perform a web search for the query: ${input.query}` }],
        tools: [
          {
            type: 'web_search_20250305',
            name: 'web_search',
            max_uses: MAX_SEARCHES_PER_CALL,
            ...(allowed.length > 0 ? { allowed_domains: allowed } : {}),
            ...(blocked.length > 0 ? { blocked_domains: blocked } : {}),
          },
        ],
      },
      ctx.abortSignal,
      collector.onEvent,
    );
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const failedAll = collector.searches.length > 0 && collector.searches.every((s) => s.kind === 'error');
    return {
      content: formatSearchResults(input.query, collector.searches, text),
      ...(failedAll ? { isError: true } : {}),
    };
  },
});
