import type { ErrorCode } from '@shared/domain/errors';
import type { SearchAnswer, SearchQuery } from '@shared/ipc/contract/search';

/** What the main process and the search worker say to each other (search-thread.ts, search-worker.ts). */

export type ThreadCommand =
  | { kind: 'query'; query: SearchQuery }
  /** Save every index with unsaved changes (at shutdown). */
  | { kind: 'flush' };

export type ThreadRequest = ThreadCommand & { id: number };

export type ThreadReply =
  | { id: number; ok: true; value: SearchAnswer | null }
  | { id: number; ok: false; code: ErrorCode; message: string };
