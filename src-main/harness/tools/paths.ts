import { constants } from 'node:fs';
import { open, readlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { realpathNearest } from '../../platform/real-path';
import type { ToolUseContext } from './tool';

export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** Resolves a tool's path argument against the cwd; refuses a NUL byte (it would truncate the path). */
export function resolveToolPath(input: string, cwd: string): string {
  if (input.includes('\0')) throw new ToolInputError('The path contains a NUL byte.');
  if (input.trim() === '') throw new ToolInputError('The path is empty.');
  return path.resolve(cwd, input);
}

/** True when `target` is `root` or inside it (by path, after resolving `..`). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The path a file tool may actually use for `file`: where it really leads (symlinks followed), which
 * must be where it led when the permission gate allowed the call. A link swapped in between — by a
 * background command, while a person was reading the prompt — makes the call fail instead of reading
 * or writing somewhere nobody approved.
 */
export function checkedDestination(file: string, ctx: Pick<ToolUseContext, 'checkedPaths'>): string {
  const real = realpathNearest(file);
  if (ctx.checkedPaths && !ctx.checkedPaths.includes(real))
    throw new ToolInputError(
      `${file} now leads to ${real}, not where it led when this call was allowed; nothing was done.`,
    );
  return real;
}

/**
 * Where an open file really is, by its descriptor (Linux: /proc/self/fd), or null where the system
 * cannot say. Checked after opening, it closes the gap between resolving a path and using it: a
 * folder on the way swapped for a link in that instant is caught, because the descriptor is what
 * gets read or written.
 */
async function openedPath(handle: FileHandle): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return null;
  }
}

async function openChecked(file: string, flags: number): Promise<FileHandle> {
  const handle = await open(file, flags | constants.O_NOFOLLOW, 0o666);
  const actual = await openedPath(handle);
  if (actual !== null && actual !== file) {
    await handle.close();
    throw new ToolInputError(
      `${file} was opened as ${actual}: a folder on its path changed while it was being opened; nothing was read or written.`,
    );
  }
  return handle;
}

/**
 * Writes `content` to the checked `file` (see {@link checkedDestination}): the last step is not
 * followed if it is a link (O_NOFOLLOW), and the opened file must be the checked one before anything
 * is truncated or written.
 */
export async function writeFileNoFollow(file: string, content: string): Promise<void> {
  const handle = await openChecked(file, constants.O_WRONLY | constants.O_CREAT);
  try {
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Reads the checked `file` through a descriptor verified to be that file (as {@link writeFileNoFollow}). */
export async function readFileChecked(file: string): Promise<Buffer> {
  const handle = await openChecked(file, constants.O_RDONLY);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
