import path from 'node:path';
import { realpathNearest } from '../../platform/real-path';
import { isInside, realPathOf, validateMemoryPath } from '../memory/dir/validate-memory-path';

const MEMORY_WRITE_TOOLS = new Set(['Write', 'Edit']);

const hasDotSegment = (rel: string) => rel.split(path.sep).some((s) => s.startsWith('.'));

/**
 * Whether a Write or Edit may go ahead without asking because it only writes memory files: every
 * path passes validateMemoryPath (so no link, `..`, NUL or UNC form leads out of the memory
 * directory), is a Markdown file, and lies in no dot-folder and is no dot-file inside it, as written
 * and as resolved. The last two keep the rule narrow even if the memory directory were set somewhere
 * unlucky (a folder holding a `.git`): memory files are `.md` files, and nothing else needs writing
 * there unasked. `checkedPaths` are the real paths the engine hands the tool, which it will write to
 * and checks again at use time: each must lie inside the real memory directory too, so the decision
 * holds for the very spelling the tool uses, not only for the one validateMemoryPath looked at.
 * Returns why, or null when the ordinary rules decide.
 */
export function memoryWriteReason(
  toolName: string,
  writes: readonly string[],
  memoryDir: string | null | undefined,
  checkedPaths: readonly string[],
): string | null {
  if (!memoryDir || !MEMORY_WRITE_TOOLS.has(toolName) || writes.length === 0) return null;
  const dir = path.resolve(memoryDir);
  const realDir = realPathOf(dir);
  if (!realDir.ok) return null;
  // Resolved the way the engine resolves checkedPaths, so the two compare like for like.
  const realDirs = [realDir.path, realpathNearest(dir)];
  if (checkedPaths.length === 0) return null;
  for (const c of checkedPaths) {
    if (!realDirs.some((d) => isInside(c, d))) return null;
  }
  for (const w of writes) {
    const checked = validateMemoryPath(w, dir);
    if (!checked.ok || !/\.md$/i.test(checked.path)) return null;
    if (hasDotSegment(path.relative(realDir.path, checked.path))) return null;
    const asWritten = path.relative(dir, path.resolve(w));
    if (!asWritten.startsWith('..') && hasDotSegment(asWritten)) return null;
  }
  return 'writes only memory files inside the memory directory, which needs no approval';
}
