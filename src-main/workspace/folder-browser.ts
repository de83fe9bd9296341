import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { DirectoryListing } from '@shared/domain/project';
import { AppError, errnoCode } from '../platform/errors';

const MAX_ENTRIES = 1000;

/**
 * Lists the sub-folders of a folder, for the "Open project" browser. It works the same in the
 * desktop app and in serve mode, where the browser cannot see the server's disk.
 */
export function listDirectory(input: string | undefined, showHidden = false): DirectoryListing {
  if (input?.includes('\0')) throw new AppError('INVALID_INPUT', 'A folder path cannot contain a NUL byte.');
  let dir = input ?? homedir();
  if (dir === '~' || dir.startsWith('~/')) dir = path.join(homedir(), dir.slice(1));
  if (!path.isAbsolute(dir)) throw new AppError('INVALID_INPUT', `"${dir}" is not an absolute path.`);
  dir = path.resolve(dir);
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') throw new AppError('NOT_FOUND', `There is no folder at ${dir}.`);
    if (code === 'ENOTDIR') throw new AppError('INVALID_INPUT', `${dir} is not a folder.`);
    if (code === 'EACCES' || code === 'EPERM')
      throw new AppError('FORBIDDEN', `${dir} cannot be read (permission denied).`);
    throw new AppError('IO_ERROR', `${dir} cannot be listed: ${(error as Error).message}`);
  }
  const visible = names.filter((n) => showHidden || !n.startsWith('.')).sort((a, b) => a.localeCompare(b));
  const parent = path.dirname(dir);
  return {
    path: dir,
    parent: parent === dir ? null : parent,
    directories: visible.slice(0, MAX_ENTRIES).map((name) => ({ name, path: path.join(dir, name) })),
    truncated: visible.length > MAX_ENTRIES,
  };
}
