import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchAnswer, SearchQuery } from '@shared/ipc/contract/search';
import { AppError } from '../../platform/errors';
import type { SearchServiceDeps } from './search-service';
import type { ThreadCommand, ThreadReply, ThreadRequest } from './search-thread-protocol';

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeRequire = createRequire(import.meta.url);

/**
 * How the worker starts: the build writes its entry to out/main/search-worker.js (main modules sit
 * in out/main or out/main/chunks); tests and the benchmark run the TypeScript source, through tsx's
 * loader registered inside the worker first (Node 20 refuses a `.ts` entry before any `--import`).
 */
function workerEntry(): { entry: string | URL; eval: boolean; env: NodeJS.ProcessEnv } {
  for (const file of [path.join(here, 'search-worker.js'), path.join(here, '..', 'search-worker.js')])
    if (existsSync(file)) return { entry: file, eval: false, env: process.env };
  // tsx's ESM API (`tsx/esm/api` as `import` resolves it: dist/esm/api/index.mjs, beside the
  // `tsx/esm` entry, which a require-based resolver would answer with the CommonJS build instead).
  const api = path.join(path.dirname(nodeRequire.resolve('tsx/esm')), 'api', 'index.mjs');
  const source = pathToFileURL(path.join(here, 'search-worker.ts')).href;
  return {
    entry: `import(${JSON.stringify(pathToFileURL(api).href)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`,
    eval: true,
    // The `@shared` alias: the paths of the project's TypeScript config.
    env: { ...process.env, TSX_TSCONFIG_PATH: path.resolve(here, '../../../tsconfig.node.json') },
  };
}

interface Pending {
  resolve: (reply: ThreadReply) => void;
  reject: (error: Error) => void;
}

/**
 * Search across sessions for the app: the SearchService runs in a worker thread, started at the
 * first query. Opening a big project's saved index (a 20 MB JSON parse), its first build and every
 * refresh run there; the main process only posts queries and takes the answers. A worker that dies
 * fails the queries it held with a typed error, and the next query starts a new one (the saved
 * index is only a cache: nothing is lost).
 */
export class SearchThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private disposed = false;

  constructor(private readonly deps: SearchServiceDeps) {}

  async query(q: SearchQuery): Promise<SearchAnswer> {
    if (this.disposed) throw new AppError('UNAVAILABLE', 'Search has been shut down.');
    const reply = await this.send({ kind: 'query', query: q });
    if (!reply.ok) throw new AppError(reply.code, reply.message);
    if (reply.value === null) throw new AppError('INTERNAL', 'The search worker gave no answer.');
    return reply.value;
  }

  /** Saves every index with unsaved changes, then ends the worker (at shutdown). */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const worker = this.worker;
    if (!worker) return;
    try {
      await this.send({ kind: 'flush' });
    } catch {
      // Gone already: its unsaved changes are rebuilt from the transcripts next time.
    }
    await worker.terminate();
  }

  /** The worker's thread id while one runs (tests). */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  private send(command: ThreadCommand): Promise<ThreadReply> {
    let worker: Worker;
    try {
      worker = this.worker ?? this.start();
    } catch (error) {
      return Promise.reject(
        new AppError('UNAVAILABLE', `The search worker could not start: ${(error as Error).message}`),
      );
    }
    const id = ++this.nextId;
    return new Promise<ThreadReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Alive while it owes an answer; otherwise it never keeps the process running.
      worker.ref();
      const request: ThreadRequest = { ...command, id };
      worker.postMessage(request);
    });
  }

  private start(): Worker {
    const entry = workerEntry();
    const worker = new Worker(entry.entry, { eval: entry.eval, workerData: this.deps, env: entry.env });
    worker.unref();
    worker.on('message', (reply: ThreadReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      p.resolve(reply);
    });
    const fail = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const error = new AppError('UNAVAILABLE', `The search worker stopped (${why}); try again.`);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}
