import path from 'node:path';

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
