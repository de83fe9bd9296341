import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseMemoryFile } from '../frontmatter';
import { MEMORY_INDEX_FILE } from '../dir/paths';
import { validateMemoryPath } from '../dir/validate-memory-path';

/** One memory file as the selector sees it: its name in the folder and what its frontmatter says. */
export interface MemoryHeader {
  /** Path relative to the memory directory, `/`-separated (`team/x.md` for team memories). */
  file: string;
  name: string;
  description: string;
  type: string | null;
  mtimeMs: number;
}

/** More files than this are not offered to the selector (newest first): its prompt stays small. */
export const MAX_SCANNED = 200;
/** Frontmatter sits at the top; a header never needs more of a file than this. */
const HEADER_BYTES = 8 * 1024;

/**
 * The memory files of a memory directory and of its `team/` folder, newest first. MEMORY.md is the
 * index, not a memory; dot folders (`.trash/`) and dot files (the dream lock and state) are skipped.
 * A missing folder is simply no memories. A file whose frontmatter does not parse is still offered,
 * under its file name, so a hand-written note is not lost to recall.
 */
export async function scanMemories(memoryDir: string): Promise<MemoryHeader[]> {
  const files = [
    ...(await markdownIn(memoryDir, '')),
    ...(await markdownIn(path.join(memoryDir, 'team'), 'team/')),
  ];
  const headers: MemoryHeader[] = [];
  for (const file of files) {
    // Checked before even the header is read: a `team` folder that is a link out of the memory
    // directory must not leak other files' first lines into the selector's prompt.
    const checked = validateMemoryPath(path.join(memoryDir, file), memoryDir);
    if (!checked.ok) continue;
    const full = checked.path;
    try {
      const [info, text] = await Promise.all([stat(full), readHead(full)]);
      if (!info.isFile()) continue;
      headers.push({ file, mtimeMs: info.mtimeMs, ...headerOf(text, file) });
    } catch {
      // Removed or unreadable between the listing and the read: not a memory right now.
    }
  }
  return headers.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_SCANNED);
}

async function markdownIn(dir: string, prefix: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.'))
      .filter((e) => !(prefix === '' && e.name === MEMORY_INDEX_FILE))
      .map((e) => prefix + e.name);
  } catch {
    return [];
  }
}

/** The first {@link HEADER_BYTES} of a file: recall runs every turn, so whole files are not read. */
async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    // A multi-byte character cut at the end decodes as U+FFFD, past the frontmatter: harmless.
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function headerOf(text: string, file: string): Pick<MemoryHeader, 'name' | 'description' | 'type'> {
  // The header slice may cut the body short; only the frontmatter is used here.
  const { memory } = parseMemoryFile(text);
  return {
    name: memory.name.trim() || file.replace(/\.md$/, ''),
    description: memory.description.trim(),
    type: memory.type,
  };
}
