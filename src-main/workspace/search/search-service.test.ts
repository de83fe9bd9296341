import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SearchQuery } from '@shared/ipc/contract/search';
import { AppError } from '../../platform/errors';
import { tempDir } from '../../test-support/temp';
import { MAX_RESULT_TEXT } from './documents';
import { ProjectSearchIndex, SEARCH_INDEX_FILE } from './project-index';
import { SearchService } from './search-service';
import { KNOWN_PHRASE, writeCorpus } from './test-corpus';

const itemLine = (item: object) => `${JSON.stringify({ type: 'item', item })}\n`;
const userItem = (id: string, text: string, createdAt = '2026-06-02T10:00:00.000Z') => ({
  kind: 'message',
  id,
  role: 'user',
  origin: 'user',
  content: [{ type: 'text', text }],
  createdAt,
  status: 'complete',
});
const sessionLine = (id: string, projectPath = '/p') =>
  `${JSON.stringify({ type: 'session', version: 1, sessionId: id, projectPath, createdAt: '2026-06-02T10:00:00.000Z', model: 'claude-sonnet-4-5' })}\n`;

function setup(projects = 1) {
  const home = tempDir('carapace-search-');
  const projectsDir = path.join(home, 'projects');
  const dirs = Array.from({ length: projects }, (_, i) => path.join(projectsDir, `proj-${i}`));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  // Saved at once, so the tests see the file every query writes.
  const service = new SearchService({ projectsDir, saveIntervalMs: 0 });
  return { home, projectsDir, dirs, service };
}

const q = (text: string, extra: Partial<SearchQuery> = {}): SearchQuery =>
  SearchQuery.parse({ text, scope: { kind: 'project', projectId: 'proj-0' }, ...extra });

describe('search across sessions', () => {
  it('finds a known phrase in a 500-session project as the top result, with its snippet marked', async () => {
    const { dirs, service } = setup();
    const corpus = writeCorpus(dirs[0] as string, { sessions: 500, messages: 50, knownIn: 317 });
    const answer = await service.query(q(KNOWN_PHRASE));
    const top = answer.hits[0];
    expect(top?.sessionId).toBe(corpus.known?.sessionId);
    expect(top?.itemId).toBe(corpus.known?.itemId);
    expect(top?.sessionTitle).toBe('Session 317');
    // Each word also occurs apart, in many other pieces; the phrase is marked as a whole.
    for (const word of KNOWN_PHRASE.split(' '))
      expect((await service.query(q(word))).total).toBeGreaterThan(10);
    const marked = top?.snippet.highlights.map(([a, b]) => top.snippet.text.slice(a, b).toLowerCase());
    expect(marked).toContain(KNOWN_PHRASE);
  }, 60_000);

  it('filters by model, date, errors and project, and searches every project when asked', async () => {
    const { dirs, service } = setup(2);
    writeCorpus(dirs[0] as string, { sessions: 6, messages: 20, projectPath: '/work/alpha', knownIn: -1 });
    writeCorpus(dirs[1] as string, { sessions: 3, messages: 20, projectPath: '/work/beta', knownIn: 1 });
    const all = await service.query(q('npm test', { scope: { kind: 'all' }, limit: 200 }));
    expect(new Set(all.hits.map((h) => h.projectName))).toEqual(new Set(['alpha', 'beta']));
    expect(all.models).toEqual(['claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4-5']);

    const opus = await service.query(q('npm test', { model: 'claude-opus-4-1', limit: 200 }));
    expect(opus.hits.length).toBeGreaterThan(0);
    expect(opus.hits.every((h) => h.model === 'claude-opus-4-1' && h.projectId === 'proj-0')).toBe(true);

    const errors = await service.query(q('failed', { errorsOnly: true, limit: 200 }));
    expect(errors.hits.length).toBeGreaterThan(0);
    expect(errors.hits.every((h) => h.isError && h.kind === 'tool_result' && h.toolUseId !== null)).toBe(
      true,
    );

    // Session 0 starts 2026-06-01T09:00Z, each next one 3 hours later: a window holding only session 2.
    const from = Date.parse('2026-06-01T15:00:00Z');
    const to = Date.parse('2026-06-01T17:59:59Z');
    const dated = await service.query(q('npm test', { from, to, limit: 200 }));
    expect(dated.hits.length).toBeGreaterThan(0);
    expect(new Set(dated.hits.map((h) => h.sessionTitle))).toEqual(new Set(['Session 2']));
    expect(dated.hits.every((h) => Date.parse(h.at) >= from && Date.parse(h.at) <= to)).toBe(true);

    // The phrase was written only in project 1.
    expect((await service.query(q(KNOWN_PHRASE))).hits.map((h) => h.snippet.text).join(' ')).not.toContain(
      KNOWN_PHRASE,
    );
    expect((await service.query(q(KNOWN_PHRASE, { scope: { kind: 'all' } }))).hits[0]?.projectName).toBe(
      'beta',
    );
  });

  it('indexes tool calls by name and input, and a tool result under its call', async () => {
    const { dirs, service } = setup();
    const file = path.join(dirs[0] as string, 's1.jsonl');
    writeFileSync(
      file,
      sessionLine('s1') +
        itemLine({
          kind: 'message',
          id: 'a1',
          role: 'assistant',
          model: 'claude-opus-4-1',
          content: [{ type: 'tool_use', id: 'tu1', name: 'Grep', input: { pattern: 'zanzibarFlag' } }],
          createdAt: '2026-06-02T10:00:01.000Z',
          status: 'complete',
        }) +
        itemLine({
          kind: 'message',
          id: 'r1',
          role: 'user',
          origin: 'tool_results',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'tu1',
              content: 'src/flags.ts:3: export const marmalade = 1',
            },
          ],
          createdAt: '2026-06-02T10:00:02.000Z',
          status: 'complete',
        }),
    );
    const call = (await service.query(q('zanzibarflag'))).hits[0];
    expect(call).toMatchObject({
      kind: 'tool_call',
      itemId: 'a1',
      toolUseId: 'tu1',
      model: 'claude-opus-4-1',
    });
    expect(call?.snippet.text).toContain('Grep');
    expect((await service.query(q('marmalade'))).hits[0]).toMatchObject({
      kind: 'tool_result',
      itemId: 'r1',
      toolUseId: 'tu1',
    });
  });

  it('reads only the appended bytes when a transcript grows, and re-reads one that was rewritten', () => {
    const { dirs } = setup();
    const dir = dirs[0] as string;
    const file = path.join(dir, 's1.jsonl');
    writeFileSync(file, sessionLine('s1') + itemLine(userItem('u1', 'first words about aardvarks')));
    const index = new ProjectSearchIndex(dir, { saveIntervalMs: 0 });
    index.refresh();
    const before = index.bytesRead;
    expect(before).toBe(statSync(file).size);
    const added = itemLine(userItem('u2', 'later words about wombats'));
    appendFileSync(file, added);
    expect(index.refresh()).toBe(true);
    expect(index.bytesRead - before).toBe(Buffer.byteLength(added));
    expect(index.query('wombats', () => true).map((r) => r.doc.itemId)).toEqual(['u2']);
    expect(index.query('aardvarks', () => true).map((r) => r.doc.itemId)).toEqual(['u1']);
    // Unchanged: nothing read.
    expect(index.refresh()).toBe(false);

    // A half-written last line is left for the next refresh, then read whole.
    const third = itemLine(userItem('u3', 'platypus arrives'));
    appendFileSync(file, third.slice(0, 30));
    index.refresh();
    expect(index.query('platypus', () => true)).toEqual([]);
    appendFileSync(file, third.slice(30));
    index.refresh();
    expect(index.query('platypus', () => true).map((r) => r.doc.itemId)).toEqual(['u3']);

    // Rewritten shorter: its old words are gone from the index.
    writeFileSync(file, sessionLine('s1') + itemLine(userItem('u9', 'only capybaras now')));
    index.refresh();
    expect(index.query('wombats', () => true)).toEqual([]);
    expect(index.query('capybaras', () => true).map((r) => r.doc.itemId)).toEqual(['u9']);
    expect(index.documentCount).toBe(1);
  });

  it('forgets what a rewind cut out, in the same read and in a later one, also after a reload', () => {
    const { dirs } = setup();
    const dir = dirs[0] as string;
    const file = path.join(dir, 's1.jsonl');
    const cut = (from: string) =>
      `${JSON.stringify({ type: 'cut', fromItemId: from, at: '2026-06-02T10:05:00.000Z' })}\n`;
    writeFileSync(
      file,
      sessionLine('s1') +
        itemLine(userItem('u1', 'kept about aardvarks')) +
        itemLine(userItem('u2', 'rewound about wombats')) +
        itemLine(userItem('u3', 'rewound about wombats again')) +
        cut('u2') +
        itemLine(userItem('u4', 'after the rewind, wombats once more')),
    );
    const index = new ProjectSearchIndex(dir, { saveIntervalMs: 0 });
    index.refresh();
    expect(index.query('wombats', () => true).map((r) => r.doc.itemId)).toEqual(['u4']);
    // A later rewind, read from the appended bytes only; a cut naming nothing indexed changes nothing.
    appendFileSync(file, cut('no-such-item') + cut('u1'));
    index.refresh();
    expect(index.query('aardvarks', () => true)).toEqual([]);
    expect(index.query('wombats', () => true)).toEqual([]);
    expect(index.documentCount).toBe(0);
    index.flush();
    expect(new ProjectSearchIndex(dir).documentCount).toBe(0);
  });

  it('answers queries that arrive while a first build is under way from one build', async () => {
    const { dirs, service } = setup();
    const corpus = writeCorpus(dirs[0] as string, { sessions: 40, messages: 30, knownIn: 12 });
    // Built on its own from the transcripts (no saved index yet, and it never saves one).
    const fresh = new ProjectSearchIndex(dirs[0] as string, { saveIntervalMs: 60_000 });
    expect(fresh.loaded).toBe('missing');
    const [a, b] = await Promise.all([service.query(q(KNOWN_PHRASE)), service.query(q('npm test'))]);
    expect(a.hits[0]?.itemId).toBe(corpus.known?.itemId);
    expect(b.total).toBeGreaterThan(0);
    service.dispose();
    const saved = new ProjectSearchIndex(dirs[0] as string);
    expect(saved.loaded).toBe('cache');
    fresh.refresh();
    // No piece indexed twice.
    expect(saved.documentCount).toBe(fresh.documentCount);
  });

  it('finds what a session wrote since the last query', async () => {
    const { dirs, service } = setup();
    const file = path.join(dirs[0] as string, 's1.jsonl');
    writeFileSync(file, sessionLine('s1') + itemLine(userItem('u1', 'an early question')));
    expect((await service.query(q('early'))).total).toBe(1);
    for (const [i, word] of ['tangerine', 'kumquat', 'pomelo'].entries()) {
      appendFileSync(file, itemLine(userItem(`later-${i}`, `a later ${word} question`)));
      expect((await service.query(q(word))).hits.map((h) => h.itemId)).toEqual([`later-${i}`]);
      expect((await service.query(q('question'))).total).toBe(i + 2);
    }
  });

  it('lets go of an index nobody searched for a while, saved, and reads it again when asked', async () => {
    const { projectsDir, dirs } = setup();
    const corpus = writeCorpus(dirs[0] as string, { sessions: 3, messages: 10, knownIn: 1 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const service = new SearchService({ projectsDir, saveIntervalMs: 60_000, idleMs: 1_000 });
      expect((await service.query(q(KNOWN_PHRASE))).hits[0]?.itemId).toBe(corpus.known?.itemId);
      expect(service.inMemory).toBe(1);
      vi.advanceTimersByTime(999);
      expect(service.inMemory).toBe(1);
      vi.advanceTimersByTime(1);
      expect(service.inMemory).toBe(0);
      await Promise.resolve();
      // Saved on the way out, before its own save was due.
      expect(new ProjectSearchIndex(dirs[0] as string).loaded).toBe('cache');
      expect((await service.query(q(KNOWN_PHRASE))).hits[0]?.itemId).toBe(corpus.known?.itemId);
      expect(service.inMemory).toBe(1);
      service.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes the index after a query rather than during it, and at shutdown', () => {
    const { dirs } = setup();
    const dir = dirs[0] as string;
    writeFileSync(path.join(dir, 's1.jsonl'), sessionLine('s1') + itemLine(userItem('u1', 'deferred words')));
    const index = new ProjectSearchIndex(dir, { saveIntervalMs: 60_000 });
    index.refresh();
    expect(index.query('deferred', () => true)).toHaveLength(1);
    expect(() => statSync(path.join(dir, SEARCH_INDEX_FILE))).toThrow();
    index.flush();
    expect(new ProjectSearchIndex(dir).loaded).toBe('cache');
  });

  it('skips corrupt lines and indexes the head of a 5 MB tool result', async () => {
    const { dirs, service } = setup();
    const file = path.join(dirs[0] as string, 's1.jsonl');
    const huge = `hugeheadword ${'x'.repeat(5 * 1024 * 1024)} hugetailword`;
    writeFileSync(
      file,
      sessionLine('s1') +
        '{"type":"item","item":{not json\n' +
        '\u0000\u0001 binary garbage\n' +
        itemLine(userItem('u1', 'survivor after the garbage')) +
        itemLine({
          kind: 'message',
          id: 'r1',
          role: 'user',
          origin: 'tool_results',
          content: [{ type: 'tool_result', tool_use_id: 'tu1', content: huge, is_error: true }],
          createdAt: '2026-06-02T10:00:02.000Z',
          status: 'complete',
        }) +
        '{"type":"item","item":{"kind":"message","id":"torn',
    );
    expect((await service.query(q('survivor'))).hits.map((h) => h.itemId)).toEqual(['u1']);
    const head = (await service.query(q('hugeheadword'))).hits;
    expect(head.map((h) => h.itemId)).toEqual(['r1']);
    expect(head[0]?.isError).toBe(true);
    expect((await service.query(q('hugetailword'))).hits).toEqual([]);
    const index = new ProjectSearchIndex(dirs[0] as string);
    expect(index.loaded).toBe('cache');
    expect(index.session('s1.jsonl')?.skipped).toBe(2);
    const saved = readFileSync(path.join(dirs[0] as string, SEARCH_INDEX_FILE), 'utf8');
    expect(saved.length).toBeLessThan(MAX_RESULT_TEXT * 20);
  });

  it('never follows a linked project folder or a linked transcript', async () => {
    const { home, projectsDir, dirs, service } = setup();
    const outside = path.join(home, 'outside');
    mkdirSync(outside);
    writeFileSync(
      path.join(outside, 'x.jsonl'),
      sessionLine('x') + itemLine(userItem('o1', 'secret elsewhere text')),
    );
    symlinkSync(outside, path.join(projectsDir, 'linked'));
    symlinkSync(path.join(outside, 'x.jsonl'), path.join(dirs[0] as string, 'linked.jsonl'));
    writeFileSync(
      path.join(dirs[0] as string, 'own.jsonl'),
      sessionLine('own') + itemLine(userItem('m1', 'own secret text')),
    );
    expect((await service.query(q('secret', { scope: { kind: 'all' } }))).hits.map((h) => h.itemId)).toEqual([
      'm1',
    ]);
    expect(
      (await service.query(q('secret', { scope: { kind: 'project', projectId: 'linked' } }))).hits,
    ).toEqual([]);
    // Nothing was written into the linked folder.
    expect(() => statSync(path.join(outside, SEARCH_INDEX_FILE))).toThrow();
    await expect(service.query(q('secret', { scope: { kind: 'project', projectId: '..' } }))).rejects.toThrow(
      AppError,
    );
  });

  it('rebuilds a corrupt, tampered or linked index file from the transcripts', async () => {
    const { home, dirs, service } = setup();
    const dir = dirs[0] as string;
    const corpus = writeCorpus(dir, { sessions: 5, messages: 12, knownIn: 3 });
    expect((await service.query(q(KNOWN_PHRASE))).hits[0]?.itemId).toBe(corpus.known?.itemId);
    const indexFile = path.join(dir, SEARCH_INDEX_FILE);
    const saved = new ProjectSearchIndex(dir);
    expect(saved.loaded).toBe('cache');
    const count = saved.documentCount;

    const good = JSON.parse(readFileSync(indexFile, 'utf8')) as {
      nextId: number;
      docs: Record<string, unknown[]>;
    };
    const column = (name: string): unknown[] => good.docs[name] ?? [];
    // The saved documents with their first one repeated under another id.
    const withExtra = Object.fromEntries(
      Object.entries(good.docs).map(([k, v]) =>
        k === 'files' || k === 'models' ? [k, v] : [k, [...v, k === 'id' ? good.nextId - 1 : v[0]]],
      ),
    );
    for (const bad of [
      'not json at all',
      '{"version":1}',
      JSON.stringify({ ...good, version: 99 }),
      // A document the MiniSearch part does not know (or one id twice).
      JSON.stringify({ ...good, docs: withExtra }),
      // A document whose id is past the counter, a column cut short, a kind out of range.
      JSON.stringify({
        ...good,
        docs: { ...good.docs, id: column('id').map((x, i) => (i === 0 ? 1e9 : x)) },
      }),
      JSON.stringify({ ...good, docs: { ...good.docs, text: column('text').slice(1) } }),
      JSON.stringify({ ...good, docs: { ...good.docs, kind: column('kind').map(() => 99) } }),
      JSON.stringify({ ...good, docs: { ...good.docs, file: column('file').map(() => 7) } }),
      JSON.stringify({ ...good, index: { nonsense: true } }),
    ]) {
      writeFileSync(indexFile, bad);
      // The app's way in (read off the main thread) decides the same.
      expect((await ProjectSearchIndex.open(dir)).loaded).toBe('rebuilt');
      const index = new ProjectSearchIndex(dir, { saveIntervalMs: 0 });
      expect(index.loaded).toBe('rebuilt');
      index.refresh();
      expect(index.documentCount).toBe(count);
      expect(index.query(KNOWN_PHRASE, () => true).map((r) => r.doc.itemId)).toContain(corpus.known?.itemId);
      expect(new ProjectSearchIndex(dir).loaded).toBe('cache');
      const reopened = await ProjectSearchIndex.open(dir);
      expect(reopened.loaded).toBe('cache');
      expect(reopened.documentCount).toBe(count);
    }

    // A temporary file a crash left behind is removed; a link named like one is left alone.
    const stale = `${indexFile}.4242.deadbeef.tmp`;
    writeFileSync(stale, 'half an index');
    const linkedTmp = `${indexFile}.4243.cafe.tmp`;
    const keep = path.join(home, 'keep.txt');
    writeFileSync(keep, 'kept');
    symlinkSync(keep, linkedTmp);
    new ProjectSearchIndex(dir);
    expect(() => statSync(stale)).toThrow();
    expect(readFileSync(keep, 'utf8')).toBe('kept');
    rmSync(linkedTmp);

    // A link in the index's place is not read, and saving replaces the link, not its target.
    const target = path.join(home, 'target.json');
    writeFileSync(target, readFileSync(indexFile));
    const targetBefore = readFileSync(target, 'utf8');
    rmSync(indexFile);
    symlinkSync(target, indexFile);
    expect((await ProjectSearchIndex.open(dir)).loaded).toBe('rebuilt');
    const linked = new ProjectSearchIndex(dir, { saveIntervalMs: 0 });
    expect(linked.loaded).toBe('rebuilt');
    linked.refresh();
    expect(readFileSync(target, 'utf8')).toBe(targetBefore);
    expect(statSync(indexFile).isFile()).toBe(true);
  });
});

describe('odd queries', () => {
  it('answers a query of punctuation or regular-expression characters without matching everything', async () => {
    const { dirs, service } = setup();
    writeFileSync(
      path.join(dirs[0] as string, 's1.jsonl'),
      sessionLine('s1') + itemLine(userItem('u1', 'a (b) [c] d.*e')),
    );
    expect(await service.query(q('... ???'))).toEqual({ hits: [], total: 0, models: [] });
    expect(await service.query(q('+++'))).toMatchObject({ hits: [], total: 0 });
    const answer = await service.query(q('.* (b)'));
    expect(answer.hits.map((h) => h.itemId)).toEqual(['u1']);
  });
});

describe('SearchQuery', () => {
  it('refuses an empty or oversized query and unknown fields', () => {
    const scope = { kind: 'all' };
    expect(SearchQuery.safeParse({ text: '   ', scope }).success).toBe(false);
    expect(SearchQuery.safeParse({ text: 'x'.repeat(501), scope }).success).toBe(false);
    expect(SearchQuery.safeParse({ text: 'x', scope, extra: 1 }).success).toBe(false);
    expect(SearchQuery.safeParse({ text: 'x', scope: { kind: 'project', projectId: '' } }).success).toBe(
      false,
    );
  });
});
