import path from 'node:path';
import { NOT_ENTERED, walkFolders } from '../../platform/walk';

/** How much of a skill's folder is listed for the model: enough to find its scripts and references. */
const MAX_FILES = 50;
const WALK = { depth: 3, maxDirs: 50, skip: NOT_ENTERED };

/**
 * The other files of a skill's folder, relative to it, for the model to read on demand. Links are
 * listed but never followed (the walk does not enter them, and Read checks where a path leads);
 * names with control characters are left out, as they could forge lines of the listing.
 */
export function skillFiles(dir: string): { names: string[]; more: boolean } {
  const names: string[] = [];
  let more = false;
  walkFolders(dir, WALK, (at, entries) => {
    for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory()) continue;
      // eslint-disable-next-line no-control-regex -- exactly the characters that would forge lines
      if (/[\u0000-\u001f\u007f]/.test(e.name)) continue;
      const rel = path.relative(dir, path.join(at, e.name));
      if (rel === 'SKILL.md') continue;
      if (names.length >= MAX_FILES) {
        more = true;
        return;
      }
      names.push(rel);
    }
  });
  return { names, more };
}
