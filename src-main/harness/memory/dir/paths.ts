import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { projectSlug } from '../../../platform/paths';

/**
 * Where a project's auto memory lives: `$CARAPACE_HOME/projects/<slug>/memory/`. The slug is formed
 * from the repository (its git common dir), not the folder, so every worktree of one repository
 * shares one memory: what the model learned in a feature worktree is still known in the main one.
 * `settingsDir` is an `autoMemoryDirectory` that memory-settings.ts has already accepted; it wins.
 */
export function memoryDirFor(opts: {
  carapaceHome: string;
  projectRoot: string;
  settingsDir?: string | null;
}): string {
  if (opts.settingsDir) return path.resolve(opts.settingsDir);
  return path.join(opts.carapaceHome, 'projects', memorySlug(opts.projectRoot), 'memory');
}

/** Team memory: shared notes kept beside the personal ones, under `memory/team/`. */
export function teamMemoryDir(memoryDir: string): string {
  return path.join(memoryDir, 'team');
}

export const MEMORY_INDEX_FILE = 'MEMORY.md';

export function memoryIndexPath(memoryDir: string): string {
  return path.join(memoryDir, MEMORY_INDEX_FILE);
}

/**
 * The slug for a project's memory: the repository's identity (see `repositoryRoot`) through the same
 * filesystem-safe, stable naming as the project folders (`projectSlug`).
 */
export function memorySlug(projectRoot: string): string {
  return projectSlug(repositoryRoot(projectRoot));
}

/**
 * The folder that names a repository, the same for all of its worktrees: the parent of the git common
 * dir (`/repo` for `/repo/.git`), or the common dir itself for a bare repository. Read from the `.git`
 * entries on disk, so no git subprocess is needed. Outside any repository it is the project folder.
 * A `.git` entry is part of the folder it sits in, which a downloaded repository or archive controls,
 * so nothing in it may name another project: a `.git` folder counts for the folder holding it (never
 * where a `.git` link points), and a `.git` file only as a worktree git itself would accept (see
 * `worktreeCommonDir`); any other `.git` file makes its folder the repository.
 */
export function repositoryRoot(projectRoot: string): string {
  const start = realOrResolved(projectRoot);
  for (let dir = start; ; dir = path.dirname(dir)) {
    const found = gitEntry(path.join(dir, '.git'));
    if (found !== null) return path.basename(found) === '.git' ? path.dirname(found) : found;
    if (path.dirname(dir) === dir) return start;
  }
}

/** The git common dir the `.git` entry stands for (itself unless a checked worktree), null when none. */
function gitEntry(dotGit: string): string | null {
  let stat;
  try {
    stat = lstatSync(dotGit);
  } catch {
    return null;
  }
  // A `.git` folder, or a link (to wherever: another project's `.git` would lend its slug): the
  // repository is the folder holding it.
  if (!stat.isFile()) return dotGit;
  return worktreeCommonDir(dotGit) ?? dotGit;
}

/**
 * A linked worktree's common dir, accepted the way git accepts one: the `.git` file's `gitdir:` names
 * `<common>/worktrees/<name>`, and that folder's `gitdir` file points back at this `.git` file. A
 * `gitdir:` line alone proves nothing (`gitdir: /home/u/work/bank` would borrow that project's
 * memory); the back link lives in the other repository, where the folder holding this file cannot
 * write. Submodules and anything else: null.
 */
function worktreeCommonDir(dotGit: string): string | null {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m?.[1]) return null;
    const gitDir = realpathSync(path.resolve(path.dirname(dotGit), m[1]));
    if (path.basename(path.dirname(gitDir)) !== 'worktrees') return null;
    const back = readFileSync(path.join(gitDir, 'gitdir'), 'utf8').trim();
    if (realpathSync(path.resolve(gitDir, back)) !== realpathSync(dotGit)) return null;
    return path.dirname(path.dirname(gitDir));
  } catch {
    return null;
  }
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
