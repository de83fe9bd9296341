import type { RawStreamEvent } from '../../model/model-client';

/** One server-side search as it came back: its links, or the API's error code. */
export type SearchOutcome =
  { kind: 'results'; links: { title: string; url: string }[] } | { kind: 'error'; code: string };

/**
 * Collects the `web_search_tool_result` blocks of a streamed reply. They arrive whole in their
 * `content_block_start` (no deltas) and the message accumulator does not keep them, so they are
 * taken from the raw events.
 */
export class SearchResultCollector {
  readonly searches: SearchOutcome[] = [];

  readonly onEvent = (event: RawStreamEvent): void => {
    if (event.type !== 'content_block_start') return;
    const block = event.content_block;
    if (block.type !== 'web_search_tool_result') return;
    const content = block.content;
    if (Array.isArray(content))
      this.searches.push({
        kind: 'results',
        links: content.map((r) => ({ title: r.title, url: r.url })),
      });
    else this.searches.push({ kind: 'error', code: content.error_code });
  };
}

/**
 * The tool result the model reads, in Claude Code's shape: the query, each search's links as JSON
 * (titles and URLs), the searching model's own text between them, and the reminder to cite sources.
 */
export function formatSearchResults(query: string, searches: readonly SearchOutcome[], text: string): string {
  const parts = [`Web search results for query: "${query}"`];
  for (const s of searches)
    parts.push(s.kind === 'results' ? `Links: ${JSON.stringify(s.links)}` : `Web search error: ${s.code}`);
  if (searches.length === 0) parts.push('No search was made.');
  if (text.trim() !== '') parts.push(text.trim());
  parts.push(
    'REMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.',
  );
  return parts.join('\n\n');
}
