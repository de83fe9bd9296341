import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { z } from 'zod';
import { errnoCode } from '../../platform/errors';
import { fromColumns, type IndexedDoc, toColumns } from './doc-columns';
import {
  type AgentIdentity,
  docsOfLine,
  emptyLineState,
  MAX_LINE_BYTES,
  type LineState,
  type SearchDoc,
} from './documents';

/**
 * The full-text index of one project's sessions, kept beside their transcripts in
 * `search-index.json`. Only a cache: the transcripts are the truth, so a missing, corrupt, linked or
 * other-version file is rebuilt from them, and deleting it loses nothing.
 *
 * Kept up to date by file size, mtime and inode: a transcript that only grew is read from where the
 * index stopped (only the appended bytes); one that shrank, was replaced or rewritten is read again.
 * A line that is not JSON is skipped and counted. Symbolic links are never followed.
 *
 * Sub-agents' and teammates' transcripts (`<session>/subagents/agent-….jsonl`, beside the session's
 * own) are indexed the same way, under their relative path; a hit in one belongs to its session and
 * is shown only while the Agent call that started it (and its ancestors') is still in the
 * conversation: a rewind that took the call out takes the sub-agent's work with it.
 */

export const SEARCH_INDEX_FILE = 'search-index.json';
/** 3: sub-agents' and teammates' transcripts are indexed too (an index of 2 lacks them: rebuilt). */
export const SEARCH_INDEX_VERSION = 3;
/** How long a refresh works before letting the process do something else (refreshAsync). */
const YIELD_AFTER_MS = 12;

// Not defined on Windows; there links are refused by readdir's entry type before opening.
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

export type { IndexedDoc };

const FileEntry = z.object({
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  ino: z.number(),
  /** Bytes read: up to the end of the last whole line. */
  offset: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  state: z.object({
    model: z.string().nullable(),
    title: z.string().nullable(),
    firstPrompt: z.string().nullable(),
    sessionId: z.string().nullable(),
    projectPath: z.string().nullable(),
    agent: z
      .object({
        agentId: z.string(),
        parentId: z.string().nullable(),
        agentType: z.string(),
        name: z.string(),
        toolUseId: z.string().nullable(),
      })
      .nullable()
      .optional(),
  }),
});
type FileEntry = z.infer<typeof FileEntry>;

const CacheFile = z.object({
  version: z.literal(SEARCH_INDEX_VERSION),
  nextId: z.number().int().nonnegative(),
  files: z.record(z.string(), FileEntry),
  /** Checked by hand (doc-columns.ts): a schema walk over every document was most of a load. */
  docs: z.unknown(),
  index: z.record(z.string(), z.unknown()),
});

/** How MiniSearch is set up: the same options when building and when loading a saved index. */
const MINISEARCH_OPTIONS = {
  fields: ['text'],
  idField: 'id',
  storeFields: [] as string[],
  // Documents are removed one by one (remove(), with their text at hand): no background vacuuming.
  autoVacuum: false,
};

type Loaded = 'cache' | 'missing' | 'rebuilt';

/** A session's own transcript, or a sub-agent's or teammate's in its folder (as the runtime names them). */
const SESSION_FILE = /^[^/]+\.jsonl$/;
const AGENT_FILE = /^agent-[\w-]+\.jsonl$/;
const isIndexedName = (name: string): boolean => {
  if (SESSION_FILE.test(name)) return true;
  const [session, sub, file, ...rest] = name.split('/');
  return (
    rest.length === 0 &&
    session !== undefined &&
    session !== '' &&
    session !== '.' &&
    session !== '..' &&
    sub === 'subagents' &&
    file !== undefined &&
    AGENT_FILE.test(file)
  );
};

/** Where a hit in a sub-agent's or teammate's transcript belongs. */
export interface AgentOrigin {
  agentId: string;
  name: string;
  agentType: string;
  /** The session's own transcript file. */
  sessionFile: string;
  /**
   * The Agent call in the session's own transcript under which this agent's work shows (its own
   * call, or its top ancestor's): null for a teammate (and for the agents a teammate started).
   */
  call: { itemId: string; toolUseId: string } | null;
  /** The agents from the top of its chain (a child of the session) down to this one. */
  path: string[];
}

interface Checked {
  docs: Map<number, IndexedDoc>;
  byFile: Map<string, number[]>;
  files: Record<string, FileEntry>;
  nextId: number;
  index: AsPlainObject;
}

export interface SessionInfo {
  sessionId: string;
  title: string;
  projectPath: string | null;
  /** Lines of its transcript that could not be read. */
  skipped: number;
}

export class ProjectSearchIndex {
  private files = new Map<string, FileEntry>();
  private docs = new Map<number, IndexedDoc>();
  private byFile = new Map<string, number[]>();
  private search!: MiniSearch<IndexedDoc>;
  private nextId = 0;
  private dirty = false;
  private modelList: string[] | null = null;
  /** Per transcript: its tool calls still in the conversation (call id → message id), made when asked. */
  private calls = new Map<string, Map<string, string>>();
  /** Transcript bytes read since this index was made (tests check that growth reads only what grew). */
  bytesRead = 0;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<boolean> | null = null;
  /** What happened to the saved index when it was loaded (for tests and the log). */
  get loaded(): Loaded {
    return this.loadedAs;
  }
  private loadedAs: Loaded = 'missing';

  /** Loads the saved index at once (tests, the benchmark); the app uses `open`. */
  constructor(
    readonly dir: string,
    private readonly options: { saveIntervalMs?: number } = {},
    load = true,
  ) {
    removeStaleTemporaries(dir);
    if (load) this.loadedAs = this.load();
    if (this.loadedAs !== 'cache') this.reset();
  }

  /** An index with its saved state loaded without holding the process up for long. */
  static async open(dir: string, options: { saveIntervalMs?: number } = {}): Promise<ProjectSearchIndex> {
    const index = new ProjectSearchIndex(dir, options, false);
    index.loadedAs = await index.loadAsync();
    if (index.loadedAs !== 'cache') index.reset();
    return index;
  }

  get indexFile(): string {
    return path.join(this.dir, SEARCH_INDEX_FILE);
  }

  get documentCount(): number {
    return this.docs.size;
  }

  doc(id: number): IndexedDoc | undefined {
    return this.docs.get(id);
  }

  /** The models of the indexed pieces (for the filter). */
  models(): string[] {
    if (this.modelList === null) {
      const set = new Set<string>();
      for (const d of this.docs.values()) if (d.model !== null) set.add(d.model);
      this.modelList = [...set];
    }
    return this.modelList;
  }

  session(file: string): SessionInfo | null {
    const f = this.files.get(file);
    if (!f) return null;
    return {
      sessionId: f.state.sessionId ?? path.basename(file, '.jsonl'),
      title: f.state.title ?? f.state.firstPrompt ?? 'Untitled session',
      projectPath: f.state.projectPath,
      skipped: f.skipped,
    };
  }

  /**
   * Who wrote a sub-agent's or teammate's transcript and where its work shows in its session; null
   * for a session's own transcript, and for one whose work is not in the conversation any more (a
   * rewind took out the call that started it or an ancestor's), whose header is missing or names
   * another agent, or whose parents loop.
   */
  origin(file: string): AgentOrigin | null {
    const slash = file.indexOf('/');
    if (slash < 0) return null;
    const sid = file.slice(0, slash);
    const sessionFile = `${sid}.jsonl`;
    if (!this.files.has(sessionFile)) return null;
    const me = this.agentIn(file);
    if (!me) return null;
    const chain: string[] = [];
    let cur: AgentIdentity = me;
    for (;;) {
      if (chain.includes(cur.agentId)) return null;
      chain.unshift(cur.agentId);
      const base = { agentId: me.agentId, name: me.name, agentType: me.agentType, sessionFile, path: chain };
      // A teammate: started by the team, not by a call; its work is in the team view.
      if (cur.toolUseId === null) return { ...base, call: null };
      const parentFile =
        cur.parentId === null || cur.parentId === sid
          ? sessionFile
          : `${sid}/subagents/${cur.parentId}.jsonl`;
      const itemId = this.callsOf(parentFile).get(cur.toolUseId);
      if (itemId === undefined) return null;
      if (parentFile === sessionFile) return { ...base, call: { itemId, toolUseId: cur.toolUseId } };
      const parent = this.agentIn(parentFile);
      if (!parent) return null;
      cur = parent;
    }
  }

  /** The agent a sub-agent transcript's header names, when it is the one its file name says. */
  private agentIn(file: string): AgentIdentity | null {
    const agent = this.files.get(file)?.state.agent ?? null;
    return agent && `${agent.agentId}.jsonl` === file.slice(file.lastIndexOf('/') + 1) ? agent : null;
  }

  private callsOf(file: string): Map<string, string> {
    let calls = this.calls.get(file);
    if (!calls) {
      calls = new Map();
      for (const id of this.byFile.get(file) ?? []) {
        const d = this.docs.get(id);
        if (d?.kind === 'tool_call' && d.toolUseId !== null) calls.set(d.toolUseId, d.itemId);
      }
      this.calls.set(file, calls);
    }
    return calls;
  }

  /** MiniSearch's answer over this project, best first. */
  query(
    text: string,
    filter: (doc: IndexedDoc) => boolean,
  ): { doc: IndexedDoc; score: number; terms: string[] }[] {
    const out: { doc: IndexedDoc; score: number; terms: string[] }[] = [];
    const hits = this.search.search(text, {
      combineWith: 'AND',
      // The last word may still be being typed.
      prefix: (_term, i, terms) => i === terms.length - 1,
      filter: (r) => {
        const d = this.docs.get(r.id as number);
        return d !== undefined && filter(d) && (!d.file.includes('/') || this.origin(d.file) !== null);
      },
    });
    for (const h of hits) {
      const doc = this.docs.get(h.id as number);
      if (doc) out.push({ doc, score: h.score, terms: h.terms });
    }
    return out;
  }

  /**
   * Brings the index up to date with the transcripts on disk (a stat of each, reading only what
   * changed), and saves it a moment later when it changed. Returns whether anything changed.
   */
  refresh(): boolean {
    const steps = this.steps();
    let step = steps.next();
    while (!step.done) step = steps.next();
    return step.value;
  }

  /**
   * refresh() for the app: between transcripts it lets the process do other work whenever it has
   * been busy for a few milliseconds, so the first build of a big project never holds up streaming
   * sessions for seconds. A query arriving meanwhile waits for the same refresh.
   */
  refreshAsync(): Promise<boolean> {
    if (this.running) return this.running;
    const run = this.stepAsync();
    this.running = run;
    // Cleared once settled (never before: a refresh with nothing to do settles at once).
    const clear = () => {
      if (this.running === run) this.running = null;
    };
    run.then(clear, clear);
    return run;
  }

  private async stepAsync(): Promise<boolean> {
    const steps = this.steps();
    let since = performance.now();
    let step = steps.next();
    while (!step.done) {
      if (performance.now() - since > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      step = steps.next();
    }
    return step.value;
  }

  /** The refresh, one transcript a step. */
  private *steps(): Generator<void, boolean> {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.dir, { withFileTypes: true });
    } catch {
      entries = [];
    }
    const seen = new Set<string>();
    let changed = false;
    const names: string[] = [];
    for (const e of entries) {
      // A linked transcript or folder could lead anywhere: never followed.
      if (e.name.endsWith('.jsonl') && e.isFile()) names.push(e.name);
      else if (e.isDirectory()) names.push(...agentTranscripts(this.dir, e.name));
    }
    for (const name of names) {
      seen.add(name);
      if (this.refreshFile(name)) {
        changed = true;
        this.modelList = null;
      }
      yield;
    }
    for (const name of [...this.files.keys()])
      if (!seen.has(name)) {
        this.dropFile(name);
        changed = true;
      }
    if (changed) {
      this.dirty = true;
      this.modelList = null;
    }
    if (this.dirty) this.scheduleSave();
    return changed;
  }

  /** Writes the index if it has changes not saved yet (at shutdown). */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.dirty) this.save();
  }

  /**
   * Writing the index (megabytes of JSON) is kept off the query that found the change: it happens a
   * moment later, once for a burst of changes (a live session grows with every message). With an
   * interval of 0 (tests) it is written at once.
   */
  private scheduleSave(): void {
    const interval = this.options.saveIntervalMs ?? 2_000;
    if (interval <= 0) {
      this.save();
      return;
    }
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      if (this.dirty) this.save();
    }, interval);
    // A pending save never keeps the process alive; shutdown flushes it.
    this.saveTimer.unref();
  }

  private refreshFile(name: string): boolean {
    const file = path.join(this.dir, name);
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
    } catch {
      // Gone meanwhile, unreadable, or a link (ELOOP): not indexed.
      if (this.files.has(name)) {
        this.dropFile(name);
        return true;
      }
      return false;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return false;
      const prev = this.files.get(name);
      if (prev && prev.size === st.size && prev.mtimeMs === st.mtimeMs && prev.ino === st.ino) return false;
      // Grown in place: read on from where the index stopped, if the byte before is a line's end.
      let entry: FileEntry;
      if (prev && prev.ino === st.ino && st.size >= prev.size && endsLineAt(fd, prev.offset)) {
        entry = { ...prev, size: st.size, mtimeMs: st.mtimeMs };
      } else {
        if (prev) this.dropFile(name);
        entry = {
          size: st.size,
          mtimeMs: st.mtimeMs,
          ino: st.ino,
          offset: 0,
          skipped: 0,
          state: emptyLineState(),
        };
      }
      this.readFrom(fd, name, entry, st.size);
      this.files.set(name, entry);
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /** Reads whole lines from `entry.offset` to `size`, adding their documents. */
  private readFrom(fd: number, name: string, entry: FileEntry, size: number): void {
    const length = size - entry.offset;
    if (length <= 0) return;
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, entry.offset + got);
      if (n === 0) break;
      got += n;
    }
    this.bytesRead += got;
    const state: LineState = { ...entry.state };
    const added: IndexedDoc[] = [];
    let start = 0;
    for (;;) {
      const end = buf.indexOf(0x0a, start);
      // A last line without its newline may still be being written: read it next time.
      if (end === -1 || end >= got) break;
      if (end - start > MAX_LINE_BYTES) entry.skipped++;
      else if (end > start) {
        try {
          const line = buf.toString('utf8', start, end);
          const cutFrom = rewindCut(line);
          if (cutFrom !== null) {
            // A rewind: what it took out of the conversation is not found any more.
            this.addDocs(name, added.splice(0));
            this.cutFile(name, cutFrom);
          } else for (const d of docsOfLine(line, state)) added.push(this.adopt(d, name));
        } catch {
          entry.skipped++;
        }
      }
      start = end + 1;
    }
    entry.offset += start;
    entry.state = state;
    this.addDocs(name, added);
  }

  private adopt(d: SearchDoc, file: string): IndexedDoc {
    return { id: this.nextId++, file, ...d };
  }

  private addDocs(name: string, docs: IndexedDoc[]): void {
    if (docs.length === 0) return;
    const ids = this.byFile.get(name) ?? [];
    for (const d of docs) {
      this.docs.set(d.id, d);
      ids.push(d.id);
    }
    this.byFile.set(name, ids);
    this.calls.delete(name);
    this.search.addAll(docs);
  }

  /**
   * Drops a transcript's documents from the message a rewind's `cut` line names onward (ids grow in
   * file order, also across a re-read), as the transcript readers do (harness/session/cut-lines.ts).
   * A cut naming no indexed message changes nothing.
   */
  private cutFile(name: string, fromItemId: string): void {
    const ids = this.byFile.get(name) ?? [];
    const first = ids.find((id) => this.docs.get(id)?.itemId === fromItemId);
    if (first === undefined) return;
    const kept: number[] = [];
    for (const id of ids) {
      const d = this.docs.get(id);
      if (!d) continue;
      if (id < first) kept.push(id);
      else {
        this.search.remove(d);
        this.docs.delete(id);
      }
    }
    this.byFile.set(name, kept);
    this.calls.delete(name);
    this.dirty = true;
  }

  private dropFile(name: string): void {
    for (const id of this.byFile.get(name) ?? []) {
      const d = this.docs.get(id);
      if (!d) continue;
      this.search.remove(d);
      this.docs.delete(id);
    }
    this.byFile.delete(name);
    this.calls.delete(name);
    this.files.delete(name);
  }

  private reset(): void {
    this.files = new Map();
    this.docs = new Map();
    this.byFile = new Map();
    this.calls = new Map();
    this.nextId = 0;
    this.search = new MiniSearch<IndexedDoc>(MINISEARCH_OPTIONS);
    this.dirty = true;
  }

  /** The saved index, checked: any doubt and it is rebuilt from the transcripts instead. */
  private load(): Loaded {
    let text: string;
    try {
      text = readNoFollow(this.indexFile);
    } catch (error) {
      return errnoCode(error) === 'ENOENT' ? 'missing' : 'rebuilt';
    }
    const checked = this.checked(text);
    if (!checked) return 'rebuilt';
    try {
      return this.takeSaved(checked, MiniSearch.loadJS<IndexedDoc>(checked.index, MINISEARCH_OPTIONS));
    } catch {
      // MiniSearch refused its part: rebuilt.
      return 'rebuilt';
    }
  }

  /** load() without holding the process up: the file read off the main thread, the tree in batches. */
  private async loadAsync(): Promise<Loaded> {
    let text: string;
    try {
      text = await readNoFollowAsync(this.indexFile);
    } catch (error) {
      return errnoCode(error) === 'ENOENT' ? 'missing' : 'rebuilt';
    }
    const checked = this.checked(text);
    if (!checked) return 'rebuilt';
    try {
      return this.takeSaved(
        checked,
        await MiniSearch.loadJSAsync<IndexedDoc>(checked.index, MINISEARCH_OPTIONS),
      );
    } catch {
      return 'rebuilt';
    }
  }

  /** The saved index's parts, checked against each other; null: rebuild. */
  private checked(text: string): Checked | null {
    try {
      const parsed = CacheFile.safeParse(JSON.parse(text));
      if (!parsed.success) return null;
      const c = parsed.data;
      const docs = new Map<number, IndexedDoc>();
      const byFile = new Map<string, number[]>();
      const saved = fromColumns(c.docs, c.nextId);
      if (!saved) return null;
      for (const d of saved) {
        if (docs.has(d.id) || !Object.hasOwn(c.files, d.file)) return null;
        docs.set(d.id, d);
        const list = byFile.get(d.file) ?? [];
        list.push(d.id);
        byFile.set(d.file, list);
      }
      for (const [name, f] of Object.entries(c.files))
        if (f.offset > f.size || !isIndexedName(name)) return null;
      return { docs, byFile, files: c.files, nextId: c.nextId, index: c.index as unknown as AsPlainObject };
    } catch {
      // Not JSON: rebuilt.
      return null;
    }
  }

  private takeSaved(c: Checked, search: MiniSearch<IndexedDoc>): Loaded {
    // The index must describe exactly these documents.
    if (search.documentCount !== c.docs.size) return 'rebuilt';
    for (const id of c.docs.keys()) if (!search.has(id)) return 'rebuilt';
    this.files = new Map(Object.entries(c.files));
    this.docs = c.docs;
    this.byFile = c.byFile;
    this.calls = new Map();
    this.search = search;
    this.nextId = c.nextId;
    return 'cache';
  }

  private save(): void {
    const json = {
      version: SEARCH_INDEX_VERSION,
      nextId: this.nextId,
      files: Object.fromEntries(this.files),
      docs: toColumns(this.docs.values()),
      index: this.search.toJSON(),
    };
    const tmp = `${this.indexFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // `wx`: never through a link planted at the temporary name; rename replaces a link at the
      // index's own name rather than writing where it points.
      writeFileSync(tmp, JSON.stringify(json), { mode: 0o600, flag: 'wx' });
      renameSync(tmp, this.indexFile);
      this.dirty = false;
    } catch {
      // Only a cache: a full disk costs the next start a rebuild, never a result.
      rmSync(tmp, { force: true });
    }
  }
}

/**
 * Temporary files a crash left mid-write (each as large as the index): removed when an index is
 * opened. Another process writing at that moment loses only its own save (its rename fails, and
 * the index is written again with its next change).
 */
/** The item a rewind's `cut` line cuts from, or null for any other line (checked cheaply first). */
function rewindCut(line: string): string | null {
  if (!line.includes('"cut"')) return null;
  const o: unknown = JSON.parse(line);
  if (typeof o !== 'object' || o === null) return null;
  const r = o as Record<string, unknown>;
  return r['type'] === 'cut' && typeof r['fromItemId'] === 'string' ? r['fromItemId'] : null;
}

/**
 * The sub-agents' and teammates' transcripts of one session folder, as `<session>/subagents/<file>`.
 * The `subagents` folder is looked at, not followed: a link there (or a file of another name) is
 * passed over.
 */
function agentTranscripts(dir: string, session: string): string[] {
  const folder = path.join(dir, session, 'subagents');
  let entries: Dirent[];
  try {
    if (!lstatSync(folder).isDirectory()) return [];
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && AGENT_FILE.test(e.name))
    .map((e) => `${session}/subagents/${e.name}`);
}

function removeStaleTemporaries(dir: string): void {
  let names: Dirent[];
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of names)
    if (e.isFile() && e.name.startsWith(`${SEARCH_INDEX_FILE}.`) && e.name.endsWith('.tmp'))
      rmSync(path.join(dir, e.name), { force: true });
}

function readNoFollow(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
    const chunks: Buffer[] = [];
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

async function readNoFollowAsync(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    if (!(await handle.stat()).isFile())
      throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

/** Whether the byte before `offset` ends a line (or offset is the start): the file only grew. */
function endsLineAt(fd: number, offset: number): boolean {
  if (offset === 0) return true;
  const b = Buffer.alloc(1);
  return readSync(fd, b, 0, 1, offset - 1) === 1 && b[0] === 0x0a;
}
