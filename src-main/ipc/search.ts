import type { HandlerMap } from './router';
import type { Services } from './services';

type SearchChannels = Extract<keyof HandlerMap, `search.${string}`>;

/** Search across sessions (the command palette's message results). */
export function searchHandlers(s: Services): Pick<HandlerMap, SearchChannels> {
  return {
    'search.query': (q) => s.search.query(q),
  };
}
