import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';

/** Not entered by the project walks: git's own folder (judged on its own) and dependencies. */
export const NOT_ENTERED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

export interface WalkOptions {
  /** Levels below the root to read (the root's own entries are level 1). */
  depth: number;
  /** At most this many folders are read, so a huge tree cannot stall the caller. */
  maxDirs: number;
  /** Folder names never entered (their entries are still shown to the visitor). */
  skip: ReadonlySet<string>;
}

/**
 * Reads the folders under `root` breadth first, level by level, never following a link, and hands
 * each folder's entries to `visit`. Unreadable folders are passed over.
 */
export function walkFolders(
  root: string,
  o: WalkOptions,
  visit: (dir: string, entries: readonly Dirent[]) => void,
): void {
  let level = [root];
  let read = 0;
  for (let d = 1; d <= o.depth && level.length > 0; d++) {
    const next: string[] = [];
    for (const dir of level) {
      if (read++ >= o.maxDirs) return;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      visit(dir, entries);
      for (const e of entries) if (e.isDirectory() && !o.skip.has(e.name)) next.push(path.join(dir, e.name));
    }
    level = next;
  }
}
