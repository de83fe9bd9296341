import { readFile, stat } from 'node:fs/promises';
import { errnoCode } from '../../platform/errors';
import { hashContent } from './read-file-state';
import type { ToolUseContext } from './tool';

export type ExistingFile = { exists: false } | { exists: true; content: string; mtimeMs: number };

export async function readExisting(file: string): Promise<ExistingFile> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new Error(`${file} is a directory.`);
    return { exists: true, content: await readFile(file, 'utf8'), mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { exists: false };
    throw error;
  }
}

/**
 * Why a write to an existing file must not happen, or null when it may: the file must have been read
 * in this session and not changed since (by mtime, and when the mtime moved, by content).
 */
export function staleReason(
  file: string,
  current: Extract<ExistingFile, { exists: true }>,
  ctx: ToolUseContext,
): string | null {
  const read = ctx.readFileState.get(file);
  if (!read) return `File has not been read yet: ${file}. Read it first before writing to it.`;
  if (read.mtimeMs !== current.mtimeMs && read.hash !== hashContent(current.content)) {
    return `File has been modified since it was read (by the user, a linter or another tool): ${file}. Read it again before writing to it.`;
  }
  return null;
}
