import type { SearchQuery } from '@shared/ipc/contract/search';
import { getClient } from '../../ipc/client';

/** The palette's full-text search (main keeps the index). */
export const searchApi = {
  query: (q: SearchQuery) => getClient().invoke('search.query', q),
};
