import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errnoCode } from '../platform/errors';

/** Files the browser opens: a CLAUDE.md loads up to 4 MiB, so nothing larger is worth editing here. */
export const MAX_MEMORY_FILE_BYTES = 4 * 1024 * 1024;

/** The content hash a write is based on: equal texts, equal versions, whatever their mtimes. */
export function versionOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** The file's text, or null when it does not exist. */
export async function readText(file: string): Promise<string | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new AppError('INVALID_INPUT', `${path.basename(file)} is not a file.`);
    if (info.size > MAX_MEMORY_FILE_BYTES)
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `${path.basename(file)} is over 4 MiB; open it in another editor.`,
      );
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(file, error);
  }
}

export function ioError(file: string, error: unknown): AppError {
  return new AppError('IO_ERROR', `Could not use ${path.basename(file)}: ${(error as Error).message}`, {
    cause: error,
  });
}

/**
 * Writes through a temp file in the same folder and a rename, so a reader (a session loading its
 * memory, the watcher) sees the old text or the new, never half of one. `beforeRename` runs last, after
 * the data is flushed, so a check made there (the conflict check) leaves the smallest window.
 * `create` puts the file in place with a hard link, which never replaces an existing file (CONFLICT).
 */
export async function writeAtomic(
  file: string,
  text: string,
  options: { beforeRename?: () => Promise<void>; create?: boolean } = {},
): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  // A dot name without `.md`: no loader or listing takes it for a memory, and the watcher ignores it.
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let mode: number | undefined;
  try {
    mode = (await stat(file)).mode & 0o777;
  } catch {
    mode = undefined;
  }
  const handle = await open(temp, 'wx', mode ?? 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await options.beforeRename?.();
    if (options.create) await link(temp, file);
    else await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    if (options.create && errnoCode(error) === 'EEXIST')
      throw new AppError('CONFLICT', `${path.basename(file)} already exists.`);
    throw error;
  }
  if (options.create) await unlink(temp).catch(() => undefined);
}
