import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchQuery } from '@shared/ipc/contract/search';
import { AppError } from '../../platform/errors';
import { tempDir } from '../../test-support/temp';
import { ProjectSearchIndex, SEARCH_INDEX_FILE } from './project-index';
import { SearchThread } from './search-thread';
import { KNOWN_PHRASE, writeCorpus } from './test-corpus';

const q = (text: string, projectId = 'proj-0') =>
  SearchQuery.parse({ text, scope: { kind: 'project', projectId } });

const threads: SearchThread[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(threads.splice(0).map((t) => t.dispose()));
});

function setup() {
  const projectsDir = path.join(tempDir('carapace-search-thread-'), 'projects');
  const dir = path.join(projectsDir, 'proj-0');
  mkdirSync(dir, { recursive: true });
  const thread = new SearchThread({ projectsDir, saveIntervalMs: 60_000 });
  threads.push(thread);
  return { projectsDir, dir, thread };
}

describe('the search index in its own thread', () => {
  it('opens a large saved index while this thread keeps ticking, and never parses it here', async () => {
    const { dir, thread } = setup();
    const corpus = writeCorpus(dir, { sessions: 120, messages: 50, knownIn: 77 });
    const built = new ProjectSearchIndex(dir, { saveIntervalMs: 0 });
    built.refresh();
    const indexBytes = statSync(path.join(dir, SEARCH_INDEX_FILE)).size;
    expect(indexBytes).toBeGreaterThan(3_000_000);

    // Every JSON.parse of this thread, by the size of what it parsed.
    const parse = vi.spyOn(JSON, 'parse');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    let answer;
    try {
      answer = await thread.query(q(KNOWN_PHRASE));
    } finally {
      clearInterval(ticker);
    }
    expect(answer.hits[0]?.itemId).toBe(corpus.known?.itemId);
    // The event loop here ran while the index was read, parsed and checked over there.
    expect(ticks).toBeGreaterThan(0);
    const parsedHere = parse.mock.calls.map(([text]) => (typeof text === 'string' ? text.length : 0));
    expect(parsedHere.filter((n) => n >= indexBytes / 2)).toEqual([]);
    expect(thread.threadId).not.toBeNull();
  }, 60_000);

  it('passes typed errors back, and starts a new worker when one died', async () => {
    const { dir, thread } = setup();
    writeCorpus(dir, { sessions: 3, messages: 8, knownIn: 1 });
    await expect(thread.query(q('anything', '..'))).rejects.toMatchObject({
      name: 'AppError',
      code: 'INVALID_INPUT',
    });
    expect((await thread.query(q(KNOWN_PHRASE))).total).toBe(1);
    const first = thread.threadId;
    // The worker dies with a query on its way: that query fails with a typed error, the next one is
    // answered. (Stopped first, in the same tick: a stopped worker handles no message posted after,
    // so the query cannot be answered before the death is seen.)
    const stopped = (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const dying = thread.query(q(KNOWN_PHRASE));
    await stopped;
    await expect(dying).rejects.toBeInstanceOf(AppError);
    expect((await thread.query(q(KNOWN_PHRASE))).total).toBe(1);
    expect(thread.threadId).not.toBe(first);
  }, 60_000);

  it('saves what it indexed when shut down, and answers nothing after', async () => {
    const { dir, thread } = setup();
    writeCorpus(dir, { sessions: 4, messages: 8, knownIn: 2 });
    expect((await thread.query(q(KNOWN_PHRASE))).total).toBe(1);
    // Its save was not due yet (a minute away): the shutdown writes it.
    expect(() => statSync(path.join(dir, SEARCH_INDEX_FILE))).toThrow();
    await thread.dispose();
    expect(new ProjectSearchIndex(dir).loaded).toBe('cache');
    await expect(thread.query(q(KNOWN_PHRASE))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  }, 60_000);
});
