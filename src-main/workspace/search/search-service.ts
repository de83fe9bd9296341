import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { SearchAnswer, SearchHit, SearchQuery } from '@shared/ipc/contract/search';
import { AppError } from '../../platform/errors';
import { type IndexedDoc, ProjectSearchIndex } from './project-index';
import { queryWords, snippetOf } from './snippet';

export const DEFAULT_LIMIT = 50;

export interface SearchServiceDeps {
  /** `$CARAPACE_HOME/projects`: one folder per project, named by its id. */
  projectsDir: string;
  saveIntervalMs?: number;
  /** An index not queried for this long is saved and dropped from memory (default 5 minutes). */
  idleMs?: number;
}

/**
 * Search across sessions: one ProjectSearchIndex per project folder, held in memory once used and
 * brought up to date before each query (a stat per transcript). "All projects" is every project
 * folder Carapace has written sessions to; a linked project folder is never read.
 */
export class SearchService {
  private readonly indexes = new Map<string, Promise<ProjectSearchIndex>>();
  private readonly opened = new Set<ProjectSearchIndex>();
  /** Per project: when an index unused this long is let go (a big project's is tens of MB). */
  private readonly idle = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: SearchServiceDeps) {}

  async query(q: SearchQuery): Promise<SearchAnswer> {
    const words = queryWords(q.text);
    if (words.length === 0) return { hits: [], total: 0, models: [] };
    // The words as typed, in order, with any white space between: tested on the text as it is
    // (no lower-cased copy of every matching piece).
    const phrase = new RegExp(words.map(escapeRegExp).join('[\\s\\p{P}]+'), 'iu');
    const ids = q.scope.kind === 'all' ? this.projectIds() : [checkedId(q.scope.projectId)];
    const from = q.from ?? -Infinity;
    const to = q.to ?? Infinity;
    const filter = (d: IndexedDoc) =>
      d.at >= from &&
      d.at <= to &&
      (q.model === undefined || d.model === q.model) &&
      (q.errorsOnly !== true || d.isError);
    const found: {
      index: ProjectSearchIndex;
      projectId: string;
      doc: IndexedDoc;
      score: number;
      terms: string[];
      exact: boolean;
    }[] = [];
    const models = new Set<string>();
    for (const projectId of ids) {
      const index = await this.index(projectId);
      if (!index) continue;
      this.touch(projectId);
      await index.refreshAsync();
      for (const m of index.models()) models.add(m);
      for (const r of index.query(q.text, filter))
        found.push({
          index,
          projectId,
          ...r,
          exact: phrase.test(r.doc.text),
        });
    }
    // The words as typed, together, first; then MiniSearch's relevance; then the newest.
    found.sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || b.doc.at - a.doc.at);
    const hits: SearchHit[] = [];
    for (const f of found.slice(0, q.limit ?? DEFAULT_LIMIT)) {
      // A sub-agent's piece belongs to its session: shown there, under the call that started it.
      const origin = f.index.origin(f.doc.file);
      const sessionFile = origin?.sessionFile ?? f.doc.file;
      const s = f.index.session(sessionFile);
      const projectPath = s?.projectPath ?? null;
      hits.push({
        projectId: f.projectId,
        projectPath,
        projectName: projectPath ? path.basename(projectPath) || projectPath : f.projectId,
        sessionId: s?.sessionId ?? path.basename(sessionFile, '.jsonl'),
        sessionTitle: s?.title ?? 'Untitled session',
        itemId: origin?.call?.itemId ?? f.doc.itemId,
        toolUseId: origin ? (origin.call?.toolUseId ?? null) : f.doc.toolUseId,
        agent: origin
          ? {
              agentId: origin.agentId,
              name: origin.name,
              agentType: origin.agentType,
              itemId: f.doc.itemId,
              toolUseId: f.doc.toolUseId,
              call: origin.call !== null,
              path: origin.path,
            }
          : null,
        kind: f.doc.kind,
        at: new Date(f.doc.at).toISOString(),
        model: f.doc.model,
        isError: f.doc.isError,
        snippet: snippetOf(f.doc.text, q.text, f.terms),
      });
    }
    return { hits, total: found.length, models: [...models].sort() };
  }

  /** Saves every index with unsaved changes (at shutdown). */
  dispose(): void {
    for (const timer of this.idle.values()) clearTimeout(timer);
    this.idle.clear();
    for (const index of this.opened) index.flush();
  }

  /** Project indexes in memory (tests). */
  get inMemory(): number {
    return this.indexes.size;
  }

  /** The palette is used in bursts: an index idle past `idleMs` goes, and is read again when asked. */
  private touch(projectId: string): void {
    const previous = this.idle.get(projectId);
    if (previous) clearTimeout(previous);
    const timer = setTimeout(
      () => {
        this.idle.delete(projectId);
        const index = this.indexes.get(projectId);
        this.indexes.delete(projectId);
        void index?.then((i) => {
          i.flush();
          this.opened.delete(i);
        });
      },
      this.deps.idleMs ?? 5 * 60_000,
    );
    timer.unref();
    this.idle.set(projectId, timer);
  }

  private async index(projectId: string): Promise<ProjectSearchIndex | null> {
    const dir = path.join(this.deps.projectsDir, projectId);
    let st;
    try {
      st = lstatSync(dir, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    // No sessions yet, or a link (which could lead anywhere outside Carapace's folders).
    if (!st?.isDirectory()) {
      this.indexes.delete(projectId);
      return null;
    }
    // Opened once, even by queries that arrive while it loads.
    let index = this.indexes.get(projectId);
    if (!index) {
      index = ProjectSearchIndex.open(dir, { saveIntervalMs: this.deps.saveIntervalMs ?? 2_000 });
      this.indexes.set(projectId, index);
      void index.then((i) => this.opened.add(i));
    }
    return index;
  }

  private projectIds(): string[] {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.deps.projectsDir, { withFileTypes: true });
    } catch {
      return [];
    }
    // isDirectory() is false for a link to a folder: linked project folders are passed over.
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  }
}

/** A project id names one folder under projects/: never a path. */
function checkedId(id: string): string {
  if (id === '.' || id === '..' || id.includes('/') || id.includes('\\') || id.includes('\0'))
    throw new AppError('INVALID_INPUT', 'That is not a project id.');
  return id;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
