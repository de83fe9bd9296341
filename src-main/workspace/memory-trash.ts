import { constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, mkdir, open, readdir, realpath, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errnoCode } from '../platform/errors';

/**
 * A scope root's trash: each deletion is a folder `<deletedAtMs>-<random>` holding the file under its
 * old relative name, so a restore needs no side record and two deletions of one name never collide.
 *
 * A trash path is `<anchor>/.trash/...`: the anchor is a folder we trust (the app's data folder, the
 * user's ~/.claude, a memory folder) and everything from `.trash` down must be a real folder. A link
 * there (a repository shipping `.trash -> ../other-project/.claude/rules`) would send a deleted file,
 * or fetch a "restored" one, anywhere; such a trash is refused, never followed.
 */

export interface TrashedFile {
  id: string;
  name: string;
  deletedAtMs: number;
  size: number;
}

const ID = /^(\d{1,15})-[0-9a-f]{8}$/;
export const TRASH_FOLDER = '.trash';

/** The folder a trash path hangs from: everything before its last `.trash`. */
export function trashAnchor(trashDir: string): string {
  const parts = path.resolve(trashDir).split(path.sep);
  const i = parts.lastIndexOf(TRASH_FOLDER);
  if (i < 1) throw new AppError('INTERNAL', `${trashDir} is not a trash folder (no ${TRASH_FOLDER} in it).`);
  return parts.slice(0, i).join(path.sep) || path.sep;
}

function notAFolder(p: string): AppError {
  return new AppError(
    'FORBIDDEN',
    `The trash folder ${p} is a link or not a folder, so it is not used; remove it to use the trash here.`,
  );
}

/**
 * The trash folder's real path after checking every part below its anchor with lstat (real folders,
 * no links), made if `create`; null when it does not exist and `create` is false.
 */
export async function trashFolder(trashDir: string, create: boolean): Promise<string | null> {
  const anchor = trashAnchor(trashDir);
  if (create) await mkdir(anchor, { recursive: true });
  let current: string;
  try {
    current = await realpath(anchor);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  for (const part of path.relative(anchor, path.resolve(trashDir)).split(path.sep)) {
    current = path.join(current, part);
    let info = await lstat(current).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return null;
      throw error;
    });
    if (info === null) {
      if (!create) return null;
      await mkdir(current, { mode: 0o700 }).catch((error: unknown) => {
        if (errnoCode(error) !== 'EEXIST') throw error;
      });
      info = await lstat(current);
    }
    if (info.isSymbolicLink() || !info.isDirectory()) throw notAFolder(current);
  }
  return current;
}

export async function moveToTrash(
  trashDir: string,
  file: string,
  name: string,
  now: number,
): Promise<TrashedFile> {
  const dir = await trashFolder(trashDir, true);
  if (dir === null) throw new AppError('IO_ERROR', `The trash folder ${trashDir} could not be made.`);
  const id = `${now}-${randomBytes(4).toString('hex')}`;
  // Made on its own (not recursive): a fresh id is a folder nobody else put there.
  await mkdir(path.join(dir, id), { mode: 0o700 });
  const target = path.join(dir, id, ...name.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  const { size } = await lstat(file);
  try {
    await rename(file, target);
  } catch (error) {
    // The trash of a repository's files lives in the app's data folder, often another file system.
    if (errnoCode(error) !== 'EXDEV') throw error;
    await copyFile(file, target, constants.COPYFILE_EXCL);
    await unlink(file);
  }
  return { id, name, deletedAtMs: now, size };
}

/** The trashed files, newest first. Entries that are not ours (hand-made folders, links) are left out. */
export async function listTrash(trashDir: string): Promise<TrashedFile[]> {
  const dir = await trashFolder(trashDir, false);
  if (dir === null) return [];
  const ids = await readdir(dir);
  const out: TrashedFile[] = [];
  for (const id of ids) {
    const m = ID.exec(id);
    if (!m?.[1]) continue;
    const entry = path.join(dir, id);
    const info = await lstat(entry).catch(() => null);
    if (!info || info.isSymbolicLink() || !info.isDirectory()) continue;
    const found = await firstFile(entry, '');
    if (found) out.push({ id, name: found.name, deletedAtMs: Number(m[1]), size: found.size });
  }
  return out.sort((a, b) => b.deletedAtMs - a.deletedAtMs);
}

/** The first plain file below `dir`; links (to files or folders) are not followed. */
async function firstFile(dir: string, prefix: string): Promise<{ name: string; size: number } | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  for (const e of entries) {
    const name = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isFile()) return { name, size: (await lstat(path.join(dir, e.name))).size };
    if (e.isDirectory()) {
      const inner = await firstFile(path.join(dir, e.name), name);
      if (inner) return inner;
    }
  }
  return null;
}

/** Finds one deletion by id; NOT_FOUND when it is not (or no longer) there. */
export async function trashed(trashDir: string, id: string): Promise<TrashedFile> {
  if (!ID.test(id)) throw new AppError('INVALID_INPUT', `"${id.slice(0, 60)}" is not a trash entry.`);
  const entry = (await listTrash(trashDir)).find((e) => e.id === id);
  if (!entry) throw new AppError('NOT_FOUND', 'That file is no longer in the trash.');
  return entry;
}

/**
 * Copies a trashed file to `target` and drops its trash folder. A copy, not a hard link: the restored
 * file never shares an inode with anything (a link would tie it to whatever the trash entry held).
 * The copy is written to a temp file beside `target` and put in place with a hard link, which never
 * replaces an existing file, so a file of that name made meanwhile is kept (CONFLICT), not overwritten.
 */
export async function takeFromTrash(trashDir: string, entry: TrashedFile, target: string): Promise<void> {
  const dir = await trashFolder(trashDir, false);
  if (dir === null) throw new AppError('NOT_FOUND', 'That file is no longer in the trash.');
  const source = path.join(dir, entry.id, ...entry.name.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const input = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const info = await input.stat();
    if (!info.isFile()) throw new AppError('NOT_FOUND', 'That file is no longer in the trash.');
    const output = await open(temp, 'wx', info.mode & 0o777);
    try {
      await output.writeFile(await input.readFile());
      await output.sync();
    } finally {
      await output.close();
    }
    await link(temp, target);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST')
      throw new AppError('CONFLICT', `A file named ${entry.name} exists again; rename or delete it first.`);
    throw error;
  } finally {
    await input.close();
    await unlink(temp).catch(() => undefined);
  }
  await rm(path.join(dir, entry.id), { recursive: true, force: true });
}
