import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a path really leads: the realpath of the path, or — when it does not exist yet (a file about
 * to be written) — the realpath of its nearest existing ancestor with the rest appended. A symlink
 * anywhere on the way (a file, a folder, the project root itself) is followed, so "inside the project"
 * is decided on the place the bytes would actually be read from or written to.
 */
export function realpathNearest(p: string): string {
  const absolute = path.resolve(p);
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
