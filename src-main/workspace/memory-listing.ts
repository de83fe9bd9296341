import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MemoryFileInfo, MemoryScope } from '@shared/domain/memory';
import { parseMemoryFile } from '../harness/memory/frontmatter';
import { MEMORY_INDEX_FILE } from '../harness/memory/dir/paths';
import { readText } from './memory-disk';
import { resolveName } from './memory-names';
import { isMemoryFile, rootAccepts, type ScopeRoot } from './memory-scopes';

/** What the memory browser's tree shows of each root. */

const DAY_MS = 86_400_000;
/** A listing stops here: a memory folder is a few dozen notes, not a repository. */
const MAX_LISTED = 2000;
const MAX_DEPTH = 8;

/** The files of one root that the browser can open, MEMORY.md first, then by name. */
export async function listRoot(
  scope: MemoryScope,
  index: number,
  r: ScopeRoot,
  now: number,
): Promise<MemoryFileInfo[]> {
  const names = r.names === 'tree' ? await walk(r.dir) : r.names;
  const out: MemoryFileInfo[] = [];
  for (const candidate of names) {
    if (!rootAccepts(r, candidate)) continue;
    let resolved;
    try {
      resolved = resolveName(r, candidate);
    } catch {
      continue; // a link out of the root, or a name the browser could not open anyway
    }
    const info = await fileInfo({ scope, root: index, name: resolved.name, file: resolved.path, now });
    if (info) out.push(info);
  }
  // MEMORY.md first: it is the index the others hang from; then by name.
  return out.sort((a, b) =>
    a.name === MEMORY_INDEX_FILE ? -1 : b.name === MEMORY_INDEX_FILE ? 1 : a.name.localeCompare(b.name),
  );
}

/** Size, age and (for memory files) type and description; null when it is not a file (any more). */
export async function fileInfo(f: {
  scope: MemoryScope;
  root: number;
  name: string;
  file: string;
  now: number;
}): Promise<MemoryFileInfo | null> {
  const { scope, root, name, file } = f;
  let s;
  try {
    s = await stat(file);
  } catch {
    return null;
  }
  if (!s.isFile()) return null;
  const info: MemoryFileInfo = {
    scope,
    root,
    name,
    size: s.size,
    mtimeMs: s.mtimeMs,
    ageDays: Math.max(0, Math.floor((f.now - s.mtimeMs) / DAY_MS)),
  };
  if (isMemoryFile(scope, name)) {
    const text = await readText(file).catch(() => null);
    const parsed = parseMemoryFile(text ?? '');
    if (parsed.ok) {
      info.type = parsed.memory.type;
      info.description = parsed.memory.description;
    } else {
      info.invalid = true;
      if (parsed.memory.type) info.type = parsed.memory.type;
      if (parsed.memory.description) info.description = parsed.memory.description;
    }
  }
  return info;
}

export async function isDir(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** Relative `/` names of the Markdown files below `dir`: no dot entries (trash, temp files, `.git`). */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  async function visit(current: string, prefix: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH || out.length >= MAX_LISTED) return;
    const real = await realpath(current).catch(() => null);
    if (real === null || seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith('.') || out.length >= MAX_LISTED) continue;
      const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
      if (e.isDirectory()) await visit(path.join(current, e.name), rel, depth + 1);
      else if ((e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase().endsWith('.md')) out.push(rel);
    }
  }
  await visit(dir, '', 0);
  return out;
}
