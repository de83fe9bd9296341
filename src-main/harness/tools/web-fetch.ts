import { z } from 'zod';
import description from './prompts/web-fetch.md?raw';
import { buildTool, type ToolOutput } from './tool';
import { FetchCache } from './web/fetch-cache';
import { DEFAULT_FETCH_LIMITS, fetchPage, type FetchLimits } from './web/fetch-page';
import { pageMarkdown } from './web/page-markdown';
import { systemResolve, type Resolve } from './web/pin-address';
import { readerPrompt, redirectMessage } from './web/reader-prompt';
import { normalizeFetchUrl } from './web/url-policy';
import { WebFetchError } from './web/web-errors';

const inputSchema = z.strictObject({
  url: z.string().describe('The URL to fetch content from'),
  prompt: z.string().min(1).describe('The prompt to run on the fetched content'),
});

/** The small model's answer is a summary; this bounds what it may spend on one. */
const READER_MAX_TOKENS = 4096;

export interface WebFetchOptions {
  limits?: FetchLimits;
  cache?: FetchCache;
  /** How names are resolved before each hop is pinned; the system resolver unless a test injects one. */
  resolve?: Resolve;
}

function fail(message: string): ToolOutput {
  return { content: message, isError: true };
}

/**
 * WebFetch `{url, prompt}`: the page is fetched here in the main process (fetch-page.ts), turned into
 * Markdown and read by the small model with the prompt; the model's answer is the result. Permission
 * (`WebFetch(domain:…)` rules, else a question) was settled before the call on the URL as written; a
 * redirect to another host is not followed but handed back, so that host is judged on its own. A name
 * is resolved once per hop and connected to only at the addresses checked (pin-address.ts): one that
 * leads to this machine or a network behind it is refused, naming the address.
 */
export function createWebFetchTool(o: WebFetchOptions = {}) {
  const limits = o.limits ?? DEFAULT_FETCH_LIMITS;
  const cache = o.cache ?? new FetchCache();
  const resolve = o.resolve ?? systemResolve;
  return buildTool({
    name: 'WebFetch',
    description,
    inputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    // eslint-disable-next-line require-yield -- no progress worth showing: one fetch, one answer
    async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
      const side = ctx.sideModel;
      if (!side) return fail('WebFetch cannot answer here: this agent has no model to read the page with.');
      let url: URL;
      try {
        url = normalizeFetchUrl(input.url);
      } catch (error) {
        if (error instanceof WebFetchError) return fail(error.message);
        throw error;
      }
      let page = cache.get(url.href);
      if (!page) {
        try {
          const fetched = await fetchPage(url, ctx.abortSignal, limits, resolve);
          if (fetched.kind === 'redirect')
            return { content: redirectMessage({ ...fetched, prompt: input.prompt }) };
          page = { url: fetched.url, ...pageMarkdown(fetched) };
        } catch (error) {
          if (error instanceof WebFetchError) return fail(error.message);
          throw error;
        }
        cache.set(url.href, page);
      }
      const answer = await side.request(
        {
          model: side.smallModel,
          maxTokens: READER_MAX_TOKENS,
          messages: [{ role: 'user', content: readerPrompt(page.markdown, input.prompt, page.notes) }],
        },
        ctx.abortSignal,
      );
      const text = answer.content
        .flatMap((b) => (b.type === 'text' ? [b.text] : []))
        .join('')
        .trim();
      return { content: text === '' ? `The model found nothing to say about ${page.url}.` : text };
    },
  });
}

export const WebFetchTool = createWebFetchTool();
