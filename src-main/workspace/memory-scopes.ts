import path from 'node:path';
import type { MemoryScope } from '@shared/domain/memory';
import { ancestorsRootFirst, DEFAULT_MANAGED_DIRS } from '../harness/memory/instructions';
import { MEMORY_INDEX_FILE, teamMemoryDir } from '../harness/memory/dir/paths';
import { projectSlug } from '../platform/paths';

/**
 * Where each scope of the memory browser reads from, mirroring what the instruction loader and the
 * memory directory use, so what the browser shows is what a session loads.
 */

/** One folder of a scope and which names in it belong to the scope. */
export interface ScopeRoot {
  dir: string;
  label: string;
  writable: boolean;
  /**
   * Where deleted files go: `<trusted folder>/.trash/...` (see memory-trash.ts), outside any folder a
   * loader reads (a trashed rule must not load as a rule) and never inside a repository, whose
   * committed links could aim it anywhere.
   */
  trashDir: string | null;
  /** Exact names the scope owns in this folder, or `tree` for every `.md` below it. */
  names: readonly string[] | 'tree';
  /** Subfolders of a tree that belong to another scope (team memory inside auto memory). */
  excludeDirs: readonly string[];
  /** Whether names must also pass `validateMemoryPath` against this folder (memory directories). */
  memoryDir: boolean;
  /**
   * For a tree inside a repository: the folder it must really lie in to be watched. A committed
   * `.claude/rules -> /usr` would otherwise put a watch on every folder of /usr.
   */
  realWithin?: string | undefined;
}

export interface ScopeDef {
  scope: MemoryScope;
  label: string;
  roots: ScopeRoot[];
}

export interface ScopeLocations {
  projectRoot: string;
  homeDir: string;
  carapaceHome: string;
  memoryDir: string;
  managedDirs?: readonly string[] | undefined;
}

const PROJECT_NAMES = ['CLAUDE.md', '.claude/CLAUDE.md'] as const;

function root(dir: string, label: string, partial: Partial<ScopeRoot> & Pick<ScopeRoot, 'names'>): ScopeRoot {
  return { dir, label, writable: true, trashDir: null, excludeDirs: [], memoryDir: false, ...partial };
}

/**
 * The trash of a repository-side folder's files (project, local, rules): in the app's data folder,
 * `$CARAPACE_HOME/.trash/<folder slug>/<scope>`, one per folder like the files themselves. A slug
 * starts with "-", so it never meets the `user` trash beside it.
 */
export function repoTrashDir(
  carapaceHome: string,
  folder: string,
  scope: 'project' | 'local' | 'rules',
): string {
  return path.join(carapaceHome, '.trash', projectSlug(folder), scope);
}

/** The scopes of a project in the browser's order (instruction files by precedence, then memory). */
export function scopeDefs(loc: ScopeLocations): ScopeDef[] {
  const ancestors = ancestorsRootFirst(loc.projectRoot);
  const claudeHome = path.join(loc.homeDir, '.claude');
  const managed = (loc.managedDirs ?? DEFAULT_MANAGED_DIRS).map((dir) =>
    root(dir, dir, { names: ['CLAUDE.md'], writable: false }),
  );
  const perAncestor = (scope: 'project' | 'local', names: readonly string[]): ScopeRoot[] =>
    ancestors.map((dir) => root(dir, dir, { names, trashDir: repoTrashDir(loc.carapaceHome, dir, scope) }));
  return [
    { scope: 'managed', label: 'Managed', roots: managed },
    {
      scope: 'user',
      label: 'User',
      roots: [
        root(claudeHome, '~/.claude', {
          names: ['CLAUDE.md'],
          trashDir: path.join(claudeHome, '.trash', 'user'),
        }),
        root(path.join(claudeHome, 'rules'), '~/.claude/rules', {
          names: 'tree',
          trashDir: path.join(claudeHome, '.trash', 'user-rules'),
        }),
        root(loc.carapaceHome, loc.carapaceHome, {
          names: ['CLAUDE.md'],
          trashDir: path.join(loc.carapaceHome, '.trash', 'user'),
        }),
      ],
    },
    { scope: 'project', label: 'Project', roots: perAncestor('project', PROJECT_NAMES) },
    { scope: 'local', label: 'Local', roots: perAncestor('local', ['CLAUDE.local.md']) },
    {
      scope: 'rules',
      label: 'Rules',
      roots: [
        root(path.join(loc.projectRoot, '.claude', 'rules'), '.claude/rules', {
          names: 'tree',
          trashDir: repoTrashDir(loc.carapaceHome, loc.projectRoot, 'rules'),
          // The project, not `.claude`: a committed `.claude -> /usr` would take `.claude` along.
          realWithin: loc.projectRoot,
        }),
      ],
    },
    {
      scope: 'auto-memory',
      label: 'Auto-memory',
      roots: [
        root(loc.memoryDir, loc.memoryDir, {
          names: 'tree',
          trashDir: path.join(loc.memoryDir, '.trash'),
          excludeDirs: ['team'],
          memoryDir: true,
        }),
      ],
    },
    {
      scope: 'team-memory',
      label: 'Team',
      roots: [
        root(teamMemoryDir(loc.memoryDir), teamMemoryDir(loc.memoryDir), {
          names: 'tree',
          trashDir: path.join(teamMemoryDir(loc.memoryDir), '.trash'),
          memoryDir: true,
        }),
      ],
    },
  ];
}

/** Whether a (checked, `/`-separated) name belongs to the root. */
export function rootAccepts(r: ScopeRoot, name: string): boolean {
  if (r.names !== 'tree') return r.names.includes(name);
  const first = name.split('/')[0] ?? '';
  return !r.excludeDirs.includes(first);
}

/** Memory files carry frontmatter; the index (MEMORY.md) and instruction files do not. */
export function isMemoryFile(scope: MemoryScope, name: string): boolean {
  return (scope === 'auto-memory' || scope === 'team-memory') && name !== MEMORY_INDEX_FILE;
}
