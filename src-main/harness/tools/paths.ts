import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
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
 * Writes `content` to `file` without following a symlink at the last step (O_NOFOLLOW): with
 * {@link checkedDestination} resolving every earlier one, a link planted at the very end fails.
 */
export async function writeFileNoFollow(file: string, content: string): Promise<void> {
  const handle = await open(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o666,
  );
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}
