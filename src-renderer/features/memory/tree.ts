import type { MemoryFileInfo, MemoryScopeView } from '@shared/domain/memory';

/** MEMORY.md, the index loaded at session start: shown first and given the gauge. */
export const INDEX_NAME = 'MEMORY.md';

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

export function isIndex(file: { scope: string; name: string }): boolean {
  return (file.scope === 'auto-memory' || file.scope === 'team-memory') && baseName(file.name) === INDEX_NAME;
}

/** A memory file proper (frontmatter with name, description, type), as opposed to an instruction file or the index. */
export function isMemoryFile(file: { scope: string; name: string }): boolean {
  return (file.scope === 'auto-memory' || file.scope === 'team-memory') && !isIndex(file);
}

/** The index first, then the rest by name: whatever order the files came in. */
function ordered(files: readonly MemoryFileInfo[]): MemoryFileInfo[] {
  return [...files].sort((a, b) => {
    const ai = isIndex(a) ? 0 : 1;
    const bi = isIndex(b) ? 0 : 1;
    return ai - bi || a.root - b.root || a.name.localeCompare(b.name);
  });
}

/**
 * The scopes with the files whose name or description holds every word of `query` (any case).
 * With a query, scopes left empty are dropped; without one, every scope shows, empty or not.
 */
export function filterTree(scopes: readonly MemoryScopeView[], query: string): MemoryScopeView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (f: MemoryFileInfo) => {
    const hay = `${f.name} ${f.description ?? ''} ${f.type ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  };
  const out: MemoryScopeView[] = [];
  for (const scope of scopes) {
    const files = ordered(scope.files.filter(matches));
    if (words.length > 0 && files.length === 0) continue;
    out.push({ ...scope, files });
  }
  return out;
}
