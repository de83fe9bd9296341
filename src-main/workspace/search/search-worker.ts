import { parentPort, workerData } from 'node:worker_threads';
import { SearchQuery } from '@shared/ipc/contract/search';
import { AppError } from '../../platform/errors';
import { SearchService, type SearchServiceDeps } from './search-service';
import type { ThreadReply, ThreadRequest } from './search-thread-protocol';

/**
 * The search index's own thread (search-thread.ts starts it): reading a saved index (tens of MB of
 * JSON for a big project), building and updating it from the transcripts and answering queries all
 * happen here, so the app's main process never waits on them.
 */

const port = parentPort;
if (!port) throw new Error('search-worker runs as a worker thread');
const service = new SearchService(workerData as SearchServiceDeps);

port.on('message', (request: ThreadRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: ThreadRequest): Promise<ThreadReply> {
  try {
    if (request.kind === 'flush') {
      service.dispose();
      return { id: request.id, ok: true, value: null };
    }
    // Checked again on this side: a message is only data.
    const answer = await service.query(SearchQuery.parse(request.query));
    return { id: request.id, ok: true, value: answer };
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      code: error instanceof AppError ? error.code : 'INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
