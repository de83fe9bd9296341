import { link, lstat, mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type {
  MemoryFileContent,
  MemoryFileInfo,
  MemoryScope,
  MemoryScopeView,
  MemoryTrashEntry,
  MemoryTree,
  MemoryType,
  MemoryWriteResult,
} from '@shared/domain/memory';
import { parseMemoryFile } from '../harness/memory/frontmatter';
import { isInside } from '../harness/memory/dir/validate-memory-path';
import { AppError, errnoCode } from '../platform/errors';
import { ioError, readText, versionOf, writeAtomic } from './memory-disk';
import { fileInfo, isDir, listRoot } from './memory-listing';
import { resolveName } from './memory-names';
import { isMemoryFile, scopeDefs, type ScopeDef, type ScopeLocations, type ScopeRoot } from './memory-scopes';
import { templateFor } from './memory-templates';
import { listTrash, moveToTrash, takeFromTrash, trashed } from './memory-trash';
import { MemoryWatcher, type MemoryChange } from './memory-watcher';

export interface MemoryFilesDeps {
  /** The project's folder for an id the workspace knows (NOT_FOUND otherwise). */
  projectRoot(projectId: string): string;
  /** Where the project's scopes live (the memory directory honours `autoMemoryDirectory`). */
  locations(projectRoot: string): ScopeLocations;
  /** Whether auto memory is switched off for the project (`autoMemoryEnabled: false`). */
  autoMemoryDisabled?(projectRoot: string): boolean;
  onChange(projectId: string, change: MemoryChange): void;
  onWatchError?(error: unknown): void;
  now?(): number;
}

export interface RootAddress {
  projectId: string;
  scope: MemoryScope;
  root: number;
}

export interface FileAddress extends RootAddress {
  name: string;
}

/**
 * The memory browser's files: every scope's roots, read, written atomically with a version check,
 * created from templates, renamed, deleted to a trash and restored, and watched for outside changes.
 * Every name comes from the renderer and goes through `resolveName` before any disk access.
 */
export class MemoryFiles {
  /**
   * Per project, how many watches are held and their watcher. The count is taken before the watcher
   * exists (see `watch`), so `watcher` is null while the memory folder is still being made.
   */
  private readonly watchers = new Map<
    string,
    { watcher: MemoryWatcher | null; count: number; ready: Promise<void> }
  >();

  constructor(private readonly deps: MemoryFilesDeps) {}

  /** Per file, the last operation queued on it: saves of one file run one after another. */
  private readonly busy = new Map<string, Promise<void>>();

  /**
   * Runs `fn` after every earlier operation on `file` has finished. Two saves based on one version
   * (two windows, a double Ctrl+S) would otherwise both pass the version check before either renamed,
   * and the later would silently replace the earlier; in turn, the second sees the first's text.
   */
  private async serial<T>(file: string, fn: () => Promise<T>): Promise<T> {
    const before = this.busy.get(file) ?? Promise.resolve();
    let release = (): void => undefined;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queued = before.then(() => mine);
    this.busy.set(file, queued);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (this.busy.get(file) === queued) this.busy.delete(file);
    }
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private defs(projectId: string): ScopeDef[] {
    return scopeDefs(this.deps.locations(this.deps.projectRoot(projectId)));
  }

  private rootOf(a: RootAddress): ScopeRoot {
    const def = this.defs(a.projectId).find((d) => d.scope === a.scope);
    const r = def?.roots[a.root];
    if (!r) throw new AppError('INVALID_INPUT', `The ${a.scope} scope has no folder number ${a.root}.`);
    return r;
  }

  private writableRoot(a: RootAddress): ScopeRoot {
    const r = this.rootOf(a);
    if (!r.writable)
      throw new AppError('FORBIDDEN', `${r.label} is managed policy and cannot be changed here.`);
    return r;
  }

  async tree(projectId: string): Promise<MemoryTree> {
    const projectRoot = this.deps.projectRoot(projectId);
    const disabled = this.deps.autoMemoryDisabled?.(projectRoot) ?? false;
    const scopes: MemoryScopeView[] = [];
    for (const def of scopeDefs(this.deps.locations(projectRoot))) {
      const files: MemoryFileInfo[] = [];
      const roots = [];
      for (const [index, r] of def.roots.entries()) {
        const exists = await isDir(r.dir);
        roots.push({ index, path: r.dir, label: r.label, writable: r.writable, exists });
        if (exists) files.push(...(await listRoot(def.scope, index, r, this.now())));
      }
      const memoryScope = def.scope === 'auto-memory' || def.scope === 'team-memory';
      scopes.push({ scope: def.scope, label: def.label, roots, files, ...(memoryScope ? { disabled } : {}) });
    }
    return { projectId, scopes };
  }

  private info(scope: MemoryScope, root: number, name: string, file: string): Promise<MemoryFileInfo | null> {
    return fileInfo({ scope, root, name, file, now: this.now() });
  }

  async read(a: FileAddress): Promise<MemoryFileContent> {
    const r = this.rootOf(a);
    const { name, path: file } = resolveName(r, a.name);
    const text = await readText(file);
    if (text === null) throw new AppError('NOT_FOUND', `${name} does not exist (any more).`);
    return { scope: a.scope, root: a.root, name, text, version: versionOf(text), writable: r.writable };
  }

  /** Writes `text` if the disk still holds `baseVersion` (null: the file must not exist). */
  async write(a: FileAddress & { text: string; baseVersion: string | null }): Promise<MemoryWriteResult> {
    const r = this.writableRoot(a);
    const { name, path: file } = resolveName(r, a.name);
    if (isMemoryFile(a.scope, name)) validateMemory(name, a.text);
    return this.serial(file, () => this.writeChecked(a, name, file));
  }

  private async writeChecked(
    a: FileAddress & { text: string; baseVersion: string | null },
    name: string,
    file: string,
  ): Promise<MemoryWriteResult> {
    const check = async (): Promise<void> => {
      const disk = await readText(file);
      const diskVersion = disk === null ? null : versionOf(disk);
      // Equal text on disk is no conflict: two saves of the same edit, or the change was the same.
      if (diskVersion !== a.baseVersion && diskVersion !== versionOf(a.text)) throw new DiskChanged(disk);
    };
    try {
      // Checked before the temp file is written (the common case costs nothing) and again just before
      // the rename, so an edit that landed while the temp file was flushed is not replaced either.
      await check();
      await writeAtomic(file, a.text, { beforeRename: check });
    } catch (error) {
      if (error instanceof DiskChanged) return conflictResult(name, error.diskText);
      if (error instanceof AppError) throw error;
      throw ioError(file, error);
    }
    const info = await this.info(a.scope, a.root, name, file);
    if (!info) throw new AppError('IO_ERROR', `${name} vanished right after it was written.`);
    return { kind: 'saved', file: info, version: versionOf(a.text) };
  }

  /** A new file from its scope's template (memory files: the template of `type`); CONFLICT if it exists. */
  async create(a: FileAddress & { type?: MemoryType | undefined }): Promise<MemoryFileContent> {
    const r = this.writableRoot(a);
    const { name, path: file } = resolveName(r, a.name);
    const text = templateFor(a.scope, name, a.type);
    try {
      await writeAtomic(file, text, { create: true });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw ioError(file, error);
    }
    return { scope: a.scope, root: a.root, name, text, version: versionOf(text), writable: true };
  }

  async rename(a: FileAddress & { newName: string }): Promise<MemoryFileInfo> {
    const r = this.writableRoot(a);
    const from = resolveName(r, a.name);
    const to = resolveName(r, a.newName);
    if (!(await exists(from.path)))
      throw new AppError('NOT_FOUND', `${from.name} does not exist (any more).`);
    if (await exists(to.path)) throw new AppError('CONFLICT', `A file named ${to.name} already exists.`);
    try {
      await mkdir(path.dirname(to.path), { recursive: true });
      // A link never replaces a file: one made under the new name meanwhile is kept (CONFLICT).
      await link(from.path, to.path);
      await unlink(from.path);
    } catch (error) {
      if (errnoCode(error) === 'EEXIST')
        throw new AppError('CONFLICT', `A file named ${to.name} already exists.`);
      throw ioError(from.path, error);
    }
    const info = await this.info(a.scope, a.root, to.name, to.path);
    if (!info) throw new AppError('IO_ERROR', `${to.name} vanished right after the rename.`);
    return info;
  }

  async delete(a: FileAddress & { baseVersion?: string | null | undefined }): Promise<MemoryTrashEntry> {
    const r = this.writableRoot(a);
    if (!r.trashDir) throw new AppError('FORBIDDEN', `Files of ${r.label} cannot be deleted here.`);
    const trashDir = r.trashDir;
    const { name, path: file } = resolveName(r, a.name);
    return this.serial(file, async () => {
      const disk = await readText(file);
      if (disk === null) throw new AppError('NOT_FOUND', `${name} does not exist (any more).`);
      if (a.baseVersion && versionOf(disk) !== a.baseVersion)
        throw new AppError(
          'CONFLICT',
          `${name} changed on disk since it was opened; look at it again first.`,
        );
      try {
        const t = await moveToTrash(trashDir, file, name, this.now());
        return { scope: a.scope, root: a.root, ...t };
      } catch (error) {
        throw ioError(file, error);
      }
    });
  }

  async trash(a: RootAddress): Promise<MemoryTrashEntry[]> {
    const r = this.rootOf(a);
    if (!r.trashDir) return [];
    const entries = await listTrash(r.trashDir).catch((error: unknown) => {
      throw ioError(r.trashDir ?? '', error);
    });
    return entries.map((e) => ({ scope: a.scope, root: a.root, ...e }));
  }

  async restore(a: RootAddress & { id: string }): Promise<MemoryFileInfo> {
    const r = this.writableRoot(a);
    if (!r.trashDir) throw new AppError('NOT_FOUND', 'That file is no longer in the trash.');
    const entry = await trashed(r.trashDir, a.id);
    // The stored name is checked like any name sent in: a hand-made trash folder cannot aim a restore out.
    const target = resolveName(r, entry.name);
    try {
      await takeFromTrash(r.trashDir, entry, target.path);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw ioError(target.path, error);
    }
    const info = await this.info(a.scope, a.root, target.name, target.path);
    if (!info) throw new AppError('IO_ERROR', `${target.name} vanished right after the restore.`);
    return info;
  }

  /**
   * Starts (or counts another) watch of the project's roots; resolves once the project is watched.
   *
   * The watch is counted before anything is awaited: an `unwatch` (or a close) that arrives while the
   * memory folder is being made must find it, or the watcher made afterwards would be held by nobody
   * and leak until the project is forgotten.
   */
  async watch(projectId: string): Promise<void> {
    const held = this.watchers.get(projectId);
    if (held) {
      held.count += 1;
      return held.ready;
    }
    const defs = this.defs(projectId);
    let done: () => void = () => undefined;
    const entry = {
      watcher: null as MemoryWatcher | null,
      count: 1,
      ready: new Promise<void>((resolve) => (done = resolve)),
    };
    this.watchers.set(projectId, entry);
    try {
      // The memory folder is made now so the model's first memory is seen without reopening the browser.
      const memoryDir = defs.find((d) => d.scope === 'auto-memory')?.roots[0]?.dir;
      if (memoryDir) await mkdir(memoryDir, { recursive: true }).catch(() => undefined);
      // Everyone who asked may have let go meanwhile (or the project was closed): then watch nothing.
      if (this.watchers.get(projectId) !== entry || entry.count <= 0) return;
      try {
        entry.watcher = new MemoryWatcher(
          defs,
          (change) => this.deps.onChange(projectId, change),
          (error) => this.deps.onWatchError?.(error),
        );
      } catch (error) {
        this.watchers.delete(projectId);
        throw error;
      }
    } finally {
      done();
    }
  }

  /** Ends one watch; the last one closes the project's watchers. */
  unwatch(projectId: string): boolean {
    const held = this.watchers.get(projectId);
    if (!held) return false;
    held.count -= 1;
    if (held.count > 0) return true;
    held.watcher?.dispose();
    this.watchers.delete(projectId);
    return false;
  }

  /** When a project is closed or the app quits. */
  closeProject(projectId: string): void {
    this.watchers.get(projectId)?.watcher?.dispose();
    this.watchers.delete(projectId);
  }

  /** Closes the watchers of every project no longer open (forgotten from the list). */
  closeProjectsExcept(open: ReadonlySet<string>): void {
    for (const id of [...this.watchers.keys()]) if (!open.has(id)) this.closeProject(id);
  }

  isWatching(projectId: string): boolean {
    return this.watchers.has(projectId);
  }

  dispose(): void {
    for (const id of [...this.watchers.keys()]) this.closeProject(id);
  }

  /** The browser reference of each absolute path, when it is a file of one of the project's scopes. */
  refsFor(projectRoot: string, files: readonly string[]): (MemoryFileRefOut | null)[] {
    const defs = scopeDefs(this.deps.locations(projectRoot));
    return files.map((file) => refIn(defs, file));
  }
}

export interface MemoryFileRefOut {
  scope: MemoryScope;
  root: number;
  name: string;
}

function refIn(defs: readonly ScopeDef[], file: string): MemoryFileRefOut | null {
  for (const def of defs) {
    for (const [index, r] of def.roots.entries()) {
      if (!isInside(file, r.dir)) continue;
      const name = path.relative(r.dir, file).split(path.sep).join('/');
      try {
        return { scope: def.scope, root: index, name: resolveName(r, name).name };
      } catch {
        continue; // not a file of this root (a project folder's other Markdown files)
      }
    }
  }
  return null;
}

/** Thrown from inside the atomic write to stop it before the rename. */
class DiskChanged extends Error {
  constructor(readonly diskText: string | null) {
    super('changed on disk');
  }
}

function conflictResult(name: string, diskText: string | null): MemoryWriteResult {
  return {
    kind: 'conflict',
    diskText,
    diskVersion: diskText === null ? null : versionOf(diskText),
    message:
      diskText === null
        ? `${name} was deleted on disk after you opened it; nothing was written.`
        : `${name} changed on disk after you opened it; nothing was written. Both versions are shown.`,
  };
}

/** A memory file must parse: INVALID_INPUT names every bad field. */
function validateMemory(name: string, text: string): void {
  const parsed = parseMemoryFile(text);
  if (parsed.ok) return;
  throw new AppError(
    'INVALID_INPUT',
    `${name} is not a valid memory: ${parsed.errors.map((e) => e.message).join(' ')}`,
    {
      details: parsed.errors.map((e) => `${e.field}: ${e.message}`),
    },
  );
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw ioError(file, error);
  }
}
