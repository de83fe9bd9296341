import { describe, expect, it } from 'vitest';
import type { MemoryFileInfo, MemoryScopeView } from '@shared/domain/memory';
import { filterTree, isIndex, isMemoryFile } from './tree';

const file = (scope: MemoryFileInfo['scope'], name: string, description?: string): MemoryFileInfo => ({
  scope,
  root: 0,
  name,
  size: 10,
  mtimeMs: 0,
  ageDays: 0,
  ...(description ? { description } : {}),
});

const scopes: MemoryScopeView[] = [
  { scope: 'project', label: 'Project', roots: [], files: [file('project', 'CLAUDE.md')] },
  {
    scope: 'auto-memory',
    label: 'Auto-memory',
    roots: [],
    files: [
      file('auto-memory', 'a-tabs.md', 'Tabs in Go files'),
      file('auto-memory', 'MEMORY.md'),
      file('auto-memory', 'deploy.md', 'How staging deploys go'),
    ],
  },
  { scope: 'team-memory', label: 'Team', roots: [], files: [] },
];

describe('filterTree', () => {
  it('puts MEMORY.md first and keeps empty scopes without a query', () => {
    const out = filterTree(scopes, '');
    expect(out.map((s) => s.scope)).toEqual(['project', 'auto-memory', 'team-memory']);
    expect(out[1]?.files.map((f) => f.name)).toEqual(['MEMORY.md', 'a-tabs.md', 'deploy.md']);
  });

  it('matches every word against name and description, any case', () => {
    const out = filterTree(scopes, 'go TABS');
    expect(out.map((s) => s.scope)).toEqual(['auto-memory']);
    expect(out[0]?.files.map((f) => f.name)).toEqual(['a-tabs.md']);
    expect(filterTree(scopes, 'claude')[0]?.files[0]?.name).toBe('CLAUDE.md');
    expect(filterTree(scopes, 'nothing-like-this')).toEqual([]);
  });

  it('tells the index and memory files from instruction files', () => {
    expect(isIndex({ scope: 'auto-memory', name: 'MEMORY.md' })).toBe(true);
    expect(isIndex({ scope: 'project', name: 'MEMORY.md' })).toBe(false);
    expect(isMemoryFile({ scope: 'team-memory', name: 'x.md' })).toBe(true);
    expect(isMemoryFile({ scope: 'auto-memory', name: 'MEMORY.md' })).toBe(false);
    expect(isMemoryFile({ scope: 'rules', name: 'x.md' })).toBe(false);
  });
});
