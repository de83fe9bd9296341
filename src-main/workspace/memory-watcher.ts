import { lstatSync, readdirSync, realpathSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { MemoryScope } from '@shared/domain/memory';
import { isInside } from '../harness/memory/dir/validate-memory-path';
import { rootAccepts, type ScopeDef } from './memory-scopes';
import { checkName } from './memory-names';

export interface MemoryChange {
  scope: MemoryScope;
  root: number;
  name: string;
}

/** Editors and the model write in bursts (temp file, rename, chmod): one event per file per burst. */
export const MEMORY_WATCH_DEBOUNCE_MS = 75;

/**
 * Folders watched per project at most. Each is an inotify watch and a synchronous readdir on the main
 * process; memory and rules are a few folders, so a tree this big is something else (a link into /usr).
 */
export const MAX_MEMORY_WATCHES = 256;

interface WatchPoint {
  dir: string;
  recursive: boolean;
  /** A tree inside a repository: watched only if it really lies in this folder. */
  realWithin?: string | undefined;
}

/**
 * Watch points for a project's scopes: tree roots recursively, folders with fixed names (every
 * ancestor of the project) only at their own level and their `.claude/`, never a whole repository.
 */
function watchPoints(defs: readonly ScopeDef[]): WatchPoint[] {
  const points = new Map<string, WatchPoint>();
  for (const def of defs) {
    for (const r of def.roots) {
      if (r.names === 'tree') {
        points.set(r.dir, { dir: r.dir, recursive: true, realWithin: r.realWithin });
        continue;
      }
      for (const name of r.names) {
        const dir = path.dirname(path.join(r.dir, name));
        if (!points.has(dir)) points.set(dir, { dir, recursive: false });
      }
    }
  }
  return [...points.values()];
}

/** A real folder (not a link to one). */
function isRealDirectory(p: string): boolean {
  try {
    const info = lstatSync(p);
    return info.isDirectory() && !info.isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Whether a tree root may be watched: a repository's tree (realWithin set) must really lie inside
 * that folder, so a committed link out of it is not walked; the person's own folders may be links.
 */
function treeRootAllowed(point: WatchPoint): boolean {
  if (point.realWithin === undefined) return true;
  try {
    return isInside(realpathSync(point.dir), realpathSync(point.realWithin));
  } catch {
    return false; // missing: nothing to watch yet
  }
}

/** Maps a changed absolute path to the scope files it is (a `CLAUDE.md` may be Project and nothing else). */
export function changesFor(defs: readonly ScopeDef[], file: string): MemoryChange[] {
  const out: MemoryChange[] = [];
  for (const def of defs) {
    def.roots.forEach((r, index) => {
      if (!isInside(file, r.dir)) return;
      const rel = path.relative(r.dir, file).split(path.sep).join('/');
      try {
        checkName(rel);
      } catch {
        return; // temp files, trash, .git, non-Markdown
      }
      if (rootAccepts(r, rel)) out.push({ scope: def.scope, root: index, name: rel });
    });
  }
  return out;
}

/**
 * Watches a project's scope roots and reports changed files, debounced. Folders missing now are not
 * watched (a watcher needs an existing folder); the browser's tree is re-read when it opens.
 */
export class MemoryWatcher {
  private readonly watchers: FSWatcher[] = [];
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** Folders with a watcher already. */
  private readonly watched = new Set<string>();
  private disposed = false;
  private limitReported = false;

  constructor(
    private readonly defs: readonly ScopeDef[],
    private readonly onChange: (change: MemoryChange) => void,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** Plain-English notices (the watch limit); by default through `onError`, which is logged. */
    private readonly onNotice: (message: string) => void = (message) => onError(new Error(message)),
  ) {
    // Every root first, then the trees' subfolders breadth-first: a big tree spends the limit on
    // itself, not on the roots after it.
    const trees: string[] = [];
    for (const point of watchPoints(defs)) {
      if (!point.recursive) this.addDir(point.dir, false);
      else if (treeRootAllowed(point) && this.addDir(point.dir, true)) trees.push(point.dir);
    }
    this.addSubfolders(trees);
  }

  /**
   * A tree as one plain watcher per folder, not `recursive: true`: Node 20's recursive watch on Linux
   * follows each file's inode, so a file replaced by rename (every atomic write: the browser's, the
   * model's, most editors') went unseen from then on. A folder's watcher sees every name in it.
   * Links to folders are not followed (lstat), and the walk stops at the watch limit.
   */
  private addSubfolders(start: string[]): void {
    const queue = [...start];
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        // Dot folders (.trash, .git) hold nothing the browser lists.
        if (!e.isDirectory() || e.name.startsWith('.')) continue;
        const sub = path.join(dir, e.name);
        if (!isRealDirectory(sub)) continue;
        if (this.full()) return;
        if (this.addDir(sub, true)) queue.push(sub);
      }
    }
  }

  /** How many folders are watched (the limit's test and diagnostics). */
  get watchCount(): number {
    return this.watchers.length;
  }

  /** Whether the limit is reached; says so once. */
  private full(): boolean {
    if (this.watchers.length < MAX_MEMORY_WATCHES) return false;
    if (!this.limitReported) {
      this.limitReported = true;
      this.onNotice(
        `Memory files are watched in at most ${MAX_MEMORY_WATCHES} folders per project; changes in further folders are not shown until the memory browser is reopened.`,
      );
    }
    return true;
  }

  private addDir(dir: string, tree: boolean): boolean {
    if (this.disposed || this.watched.has(dir) || this.full()) return false;
    try {
      const w = watch(dir, { persistent: false }, (_event, filename) => {
        if (filename === null) return;
        const file = path.join(dir, filename);
        // A folder made inside a watched tree is watched from now on (a link to one is not).
        if (tree && !filename.startsWith('.') && isRealDirectory(file) && this.addDir(file, true))
          this.addSubfolders([file]);
        this.changed(file);
      });
      w.on('error', (error) => this.onError(error));
      this.watchers.push(w);
      this.watched.add(dir);
      return true;
    } catch {
      // Missing or unreadable folder: nothing there to report yet.
      return false;
    }
  }

  private changed(file: string): void {
    if (this.disposed) return;
    for (const change of changesFor(this.defs, file)) {
      const key = `${change.scope}\0${change.root}\0${change.name}`;
      const timer = this.pending.get(key);
      if (timer) clearTimeout(timer);
      this.pending.set(
        key,
        setTimeout(() => {
          this.pending.delete(key);
          if (!this.disposed) this.onChange(change);
        }, MEMORY_WATCH_DEBOUNCE_MS),
      );
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const w of this.watchers) w.close();
    this.watchers.length = 0;
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }
}
