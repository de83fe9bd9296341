import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SessionWorktree } from '@shared/domain/session';
import { AppError } from '../../platform/errors';
import { git, gitOk, GitError, firstLine } from './git';
import { worktreeProblem } from '../worktree-check';

/**
 * Git worktrees for sessions: each one its own folder (under the data folder, never elsewhere) on its
 * own branch `carapace/<name>`, made from a base branch; merged back into that base branch in the
 * main checkout, or removed with its branch. Everything goes through git itself (git.ts).
 */

export const BRANCH_PREFIX = 'carapace/';

export interface RepoInfo {
  /** The project is inside a git work tree. */
  isGit: boolean;
  /** Local branches, the current one first. */
  branches: string[];
  /** The branch the main checkout is on; null when detached or not git. */
  current: string | null;
}

export interface WorktreeStatus {
  /** Commits on the worktree's branch that the base has not. */
  ahead: number;
  /** Commits on the base that the worktree's branch has not. */
  behind: number;
  /** Files changed in the worktree and not committed. */
  dirty: number;
  /** The worktree's folder is still there, and is still this worktree (worktree-check.ts). */
  exists: boolean;
  /** What happened to it when it is not: in words for the person; null when it is there. */
  problem: string | null;
}

/** True when nothing at all is at the path any more (not even a link): what git can prune. */
function vanished(p: string): boolean {
  try {
    lstatSync(p);
    return false;
  } catch {
    return true;
  }
}

export type MergeResult =
  | { kind: 'fast-forward'; commit: string }
  | { kind: 'merge-commit'; commit: string }
  | { kind: 'up-to-date'; commit: string };

/** What names from the UI may look like before git itself checks them. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;

/** Wraps git failures as the contract's errors. */
async function step<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GitError) throw new AppError('CONFLICT', error.message);
    throw error;
  }
}

function lines(text: string, sep = '\n'): string[] {
  return text.split(sep).filter((l) => l !== '');
}

/** Paths from `git status --porcelain -z` (a rename's source too). */
function statusPaths(z: string): string[] {
  const out: string[] = [];
  const parts = z.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i] ?? '';
    if (entry.length < 4) continue;
    out.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') out.push(parts[++i] ?? '');
  }
  return out.filter((p) => p !== '');
}

/** A folder's real path when it exists (worktree paths are stored real), else the path resolved. */
function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

export class WorktreeService {
  /**
   * `root`: the data folder's `worktrees/`, where worktrees live by default. `baseDirectory`: the
   * person's `worktrees.baseDirectory` setting, read at each creation (null: the data folder).
   */
  constructor(
    private readonly root: string,
    private readonly baseDirectory: () => string | null = () => null,
  ) {}

  /**
   * Where new worktrees go: the configured base directory when it is usable, else the data folder.
   * A base inside the repository would put checkouts inside the checkout (and under its `git status`).
   */
  private rootFor(top: string): string {
    const base = this.baseDirectory();
    if (base === null) return this.root;
    if (!path.isAbsolute(base))
      throw new AppError(
        'INVALID_INPUT',
        `worktrees.baseDirectory must be an absolute path (it is "${base}").`,
      );
    const resolved = realOrResolved(base);
    const rel = path.relative(top, resolved);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)))
      throw new AppError(
        'INVALID_INPUT',
        `worktrees.baseDirectory (${resolved}) is inside the repository; choose a folder outside it.`,
      );
    return resolved;
  }

  /** The folders a worktree record may name: the data folder's, and the configured base directory. */
  private roots(): string[] {
    const base = this.baseDirectory();
    return base !== null && path.isAbsolute(base) ? [this.root, realOrResolved(base)] : [this.root];
  }

  /** Whether a project is in git, and its branches (for the new-session flow). */
  async info(projectPath: string): Promise<RepoInfo> {
    const inside = await git(projectPath, ['rev-parse', '--is-inside-work-tree']);
    if (inside.code !== 0 || inside.stdout.trim() !== 'true')
      return { isGit: false, branches: [], current: null };
    const current = await git(projectPath, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
    const cur = current.code === 0 ? current.stdout.trim() : null;
    const refs = await git(projectPath, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
    const branches = lines(refs.stdout).filter((b) => b !== cur);
    return { isGit: true, branches: cur === null ? branches : [cur, ...branches], current: cur };
  }

  /** Checks a branch name with git's own rules (and refuses option-like or odd names first). */
  private async checkBranchName(cwd: string, name: string, what: string): Promise<void> {
    const ok = NAME.test(name) && !name.includes('..') && !name.endsWith('/') && !name.endsWith('.lock');
    const r = ok ? await git(cwd, ['check-ref-format', '--branch', name]) : null;
    if (r?.code !== 0)
      throw new AppError('INVALID_INPUT', `${what} "${name.slice(0, 100)}" is not a valid branch name.`);
  }

  /** The repository's top folder and the project's place in it. */
  private async top(projectPath: string): Promise<{ top: string; prefix: string }> {
    const r = await git(projectPath, ['rev-parse', '--show-toplevel', '--show-prefix']);
    if (r.code !== 0)
      throw new AppError('CONFLICT', 'This project is not in a git repository, so it cannot have worktrees.');
    const [top = '', prefix = ''] = r.stdout.split('\n');
    return { top: realpathSync(top), prefix: prefix.replace(/\/$/, '') };
  }

  /** The folder a project's worktrees go in: one per repository, named by its path's hash. */
  private repoDir(top: string, root: string): string {
    const hash = createHash('sha256').update(top).digest('hex').slice(0, 12);
    const name =
      path
        .basename(top)
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .slice(0, 40) || 'repo';
    return path.join(root, `${name}-${hash}`);
  }

  /**
   * A new worktree on a new branch `carapace/<name>` from `base` (after `git fetch` of the base's
   * remote when asked, then from its upstream). Repository hooks never run (git.ts).
   */
  async create(
    projectPath: string,
    o: { base: string; name: string; fetch?: boolean },
  ): Promise<SessionWorktree> {
    const { top, prefix } = await this.top(projectPath);
    await this.checkBranchName(top, o.base, 'The base branch');
    const branch = `${BRANCH_PREFIX}${o.name}`;
    if (!NAME.test(o.name))
      throw new AppError('INVALID_INPUT', `"${o.name.slice(0, 100)}" is not a valid worktree name.`);
    await this.checkBranchName(top, branch, 'The new branch');
    const baseRef = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${o.base}^{commit}`]);
    if (baseRef.code !== 0) throw new AppError('NOT_FOUND', `There is no branch "${o.base}" to start from.`);
    const taken = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
    if (taken.code === 0) throw new AppError('CONFLICT', `The branch ${branch} already exists.`);
    let start = `refs/heads/${o.base}`;
    if (o.fetch === true) start = await step(() => this.fetchBase(top, o.base, start));
    const dir = path.join(this.repoDir(top, this.rootFor(top)), o.name.replaceAll('/', '-'));
    if (existsSync(dir)) throw new AppError('CONFLICT', `The folder ${dir} already exists.`);
    mkdirSync(path.dirname(dir), { recursive: true });
    await step(() =>
      gitOk(top, ['worktree', 'add', '--quiet', '-b', branch, '--', dir, start], 'Creating the worktree'),
    );
    return { path: realpathSync(dir), prefix, branch, base: o.base };
  }

  /** Fetches the base branch's remote; returns where to start from (its upstream, when it has one). */
  private async fetchBase(top: string, base: string, fallback: string): Promise<string> {
    const remote = await git(top, ['config', '--get', `branch.${base}.remote`]);
    if (remote.code !== 0) throw new GitError(`The branch ${base} has no remote to fetch from`);
    const name = remote.stdout.trim();
    // Settings that make a fetch run a program (a remote's upload-pack, a credential helper, a proxy
    // command) or send it elsewhere: a repository must not choose them; the person's own may.
    const risky = await git(top, [
      'config',
      '--show-scope',
      '--null',
      '--name-only',
      '--get-regexp',
      '^(remote\\..*\\.(uploadpack|receivepack)|credential\\..*|core\\.gitproxy|url\\..*\\.insteadof)$',
    ]);
    const parts = risky.stdout.split('\0');
    for (let i = 0; i + 1 < parts.length; i += 2)
      if (parts[i] === 'local' || parts[i] === 'worktree')
        throw new GitError(
          `This repository sets ${parts[i + 1] ?? 'a fetch setting'}, which would run a program or redirect the fetch; fetch it yourself`,
        );
    if (name === '.' || !/^[A-Za-z0-9._-]+$/.test(name))
      throw new GitError(`The remote "${name}" cannot be fetched here`);
    await gitOk(top, ['fetch', '--no-tags', '--no-recurse-submodules', '--', name], `Fetching ${name}`);
    const upstream = await git(top, ['rev-parse', '--verify', '--quiet', `${base}@{upstream}`]);
    return upstream.code === 0 ? upstream.stdout.trim() : fallback;
  }

  /** Refuses a worktree record that does not name a Carapace worktree (data folder or base directory). */
  private check(wt: SessionWorktree): void {
    const inside = (root: string) => {
      const rel = path.relative(root, wt.path);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    };
    if (!this.roots().some(inside) || !wt.branch.startsWith(BRANCH_PREFIX) || !NAME.test(wt.base))
      throw new AppError('FORBIDDEN', "This session's worktree record does not name a Carapace worktree.");
  }

  /** Ahead/behind against the base, and uncommitted files in the worktree. */
  async status(projectPath: string, wt: SessionWorktree): Promise<WorktreeStatus> {
    this.check(wt);
    const { top } = await this.top(projectPath);
    const counts = await git(top, [
      'rev-list',
      '--left-right',
      '--count',
      `refs/heads/${wt.base}...refs/heads/${wt.branch}`,
    ]);
    const [behind = 0, ahead = 0] = counts.code === 0 ? counts.stdout.trim().split(/\s+/).map(Number) : [];
    const problem = worktreeProblem(projectPath, wt);
    // git runs in the folder only while it is the worktree (never in a link put in its place).
    const st = problem === null ? await git(wt.path, ['status', '--porcelain', '-z']) : null;
    if (problem !== null) await this.prune(top, wt);
    return {
      ahead,
      behind,
      dirty: st ? statusPaths(st.stdout).length : 0,
      exists: problem === null,
      problem,
    };
  }

  /**
   * Forgets a worktree whose folder vanished (removed by hand, `rm -rf`): git keeps listing it, and
   * its branch cannot be deleted while git thinks it is checked out there. Only this worktree's entry
   * goes (`git worktree remove` of a missing folder drops just its record), not every stale one as
   * `git worktree prune` would: another worktree of the person's may be on a drive not mounted now.
   * A path with something at it (a link, a folder) is left alone: git would refuse, and rightly.
   */
  private async prune(top: string, wt: SessionWorktree): Promise<void> {
    if (!vanished(wt.path)) return;
    const list = await git(top, ['worktree', 'list', '--porcelain', '-z']);
    const listed = list.stdout.split('\0').some((l) => l === `worktree ${wt.path}`);
    // Best effort: another status asked at the same time may have pruned it first (git then says
    // "not a working tree"); a record still there keeps the branch from deletion, which says so.
    if (listed) await git(top, ['worktree', 'remove', '--', wt.path]);
  }

  /**
   * What deleting the worktree and its branch would lose: its uncommitted files (none once the
   * folder is gone), and the commits on its branch that no other branch, tag or remote-tracking
   * branch holds (ahead of the base is not enough: another branch may have them).
   */
  async loss(projectPath: string, wt: SessionWorktree): Promise<{ files: string[]; commits: number }> {
    this.check(wt);
    const { top } = await this.top(projectPath);
    const files =
      worktreeProblem(projectPath, wt) === null
        ? statusPaths((await git(wt.path, ['status', '--porcelain', '-z'])).stdout)
        : [];
    return { files, commits: await this.unmergedCommits(top, wt) };
  }

  private async unmergedCommits(top: string, wt: SessionWorktree): Promise<number> {
    const own = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${wt.branch}`]);
    if (own.code !== 0) return 0;
    // The branch name is `carapace/` and NAME's characters: no glob character can be in it.
    const r = await step(() =>
      gitOk(
        top,
        [
          'rev-list',
          '--count',
          `refs/heads/${wt.branch}`,
          '--not',
          `--exclude=${wt.branch}`,
          '--branches',
          '--tags',
          '--remotes',
        ],
        'Counting unmerged commits',
      ),
    );
    return Number(r.trim()) || 0;
  }

  /**
   * Merges the worktree's branch into its base in the main checkout: the worktree's uncommitted
   * changes are committed first (`message`), then a fast-forward when the base has not moved, else a
   * merge commit. Refused, changing nothing in the main checkout, when it is not on the base branch,
   * is mid-merge, has uncommitted changes to files the merge touches, or the merge would conflict.
   */
  async merge(projectPath: string, wt: SessionWorktree, message: string): Promise<MergeResult> {
    this.check(wt);
    const { top } = await this.top(projectPath);
    const head = await git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
    const on = head.code === 0 ? head.stdout.trim() : null;
    if (on !== wt.base)
      throw new AppError(
        'CONFLICT',
        `The main checkout is on ${on ?? 'a detached HEAD'}, not ${wt.base}: switch it to ${wt.base} first.`,
      );
    if ((await git(top, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'])).code === 0)
      throw new AppError(
        'CONFLICT',
        'The main checkout is in the middle of a merge: finish or abort it first.',
      );
    if (worktreeProblem(projectPath, wt) === null) {
      const st = await git(wt.path, ['status', '--porcelain', '-z']);
      if (statusPaths(st.stdout).length > 0)
        await step(async () => {
          await gitOk(wt.path, ['add', '--all', '--', '.'], "Staging the worktree's changes");
          await gitOk(
            wt.path,
            ['commit', '--quiet', '--no-verify', '-m', message],
            "Committing the worktree's changes",
            { identity: true },
          );
        });
    }
    const base = `refs/heads/${wt.base}`;
    const branch = `refs/heads/${wt.branch}`;
    const touched = lines(
      await step(() =>
        gitOk(top, ['diff', '--name-only', '-z', `${base}...${branch}`], 'Listing the changes'),
      ),
      '\0',
    );
    const dirty = new Set(
      statusPaths(
        await step(() =>
          gitOk(top, ['status', '--porcelain', '-z', '--untracked-files=all'], 'Reading the main checkout'),
        ),
      ),
    );
    const clash = touched.filter((f) => dirty.has(f));
    if (clash.length > 0)
      throw new AppError(
        'CONFLICT',
        `The main checkout has uncommitted changes to files this merge touches: ${clash.slice(0, 10).join(', ')}. Commit or put them aside first.`,
        { details: clash },
      );
    const tip = async () => (await step(() => gitOk(top, ['rev-parse', 'HEAD'], 'Reading HEAD'))).trim();
    if ((await git(top, ['merge-base', '--is-ancestor', branch, base])).code === 0)
      return { kind: 'up-to-date', commit: await tip() };
    if ((await git(top, ['merge-base', '--is-ancestor', base, branch])).code === 0) {
      await step(() => gitOk(top, ['merge', '--ff-only', '--quiet', branch], 'Fast-forwarding'));
      return { kind: 'fast-forward', commit: await tip() };
    }
    // A dry run first: merge-tree touches neither the index nor the files.
    const dry = await git(top, ['merge-tree', '--write-tree', '--name-only', '--no-messages', base, branch]);
    if (dry.code === 1) throw this.conflict(wt, lines(dry.stdout).slice(1));
    if (dry.code !== 0) throw new AppError('CONFLICT', `Checking the merge: ${firstLine(dry.stderr)}`);
    const msg = `Merge ${wt.branch} into ${wt.base}`;
    const r = await git(top, ['merge', '--no-ff', '--no-edit', '--quiet', '-m', msg, branch], {
      identity: true,
    });
    if (r.code !== 0) {
      const unmerged = await git(top, ['diff', '--name-only', '--diff-filter=U']);
      await git(top, ['merge', '--abort']);
      throw this.conflict(wt, lines(unmerged.stdout));
    }
    return { kind: 'merge-commit', commit: await tip() };
  }

  private conflict(wt: SessionWorktree, files: string[]): AppError {
    const list = [...new Set(files)];
    return new AppError(
      'CONFLICT',
      `Merging ${wt.branch} into ${wt.base} would conflict in ${list.slice(0, 10).join(', ') || 'some files'}; nothing was changed.`,
      { details: list },
    );
  }

  /**
   * Removes the worktree and deletes its branch. Nothing is touched, unless `force` (the person saw
   * what would be lost and confirmed), while the worktree has uncommitted changes or its branch has
   * commits no other branch, tag or remote holds; the refusal names the files and the count
   * (`details: {files, commits}`). A folder that is no longer the worktree (a link or another folder
   * at its path) is never removed: the person is told to move it away first.
   */
  async remove(projectPath: string, wt: SessionWorktree, force: boolean): Promise<void> {
    this.check(wt);
    const { top } = await this.top(projectPath);
    const problem = worktreeProblem(projectPath, wt);
    if (problem !== null && !vanished(wt.path))
      throw new AppError(
        'CONFLICT',
        `${wt.path} is no longer this session's worktree, so Carapace leaves it alone; move it away, then delete again.`,
      );
    const { files, commits } = await this.loss(projectPath, wt);
    if ((files.length > 0 || commits > 0) && !force) {
      const lost = [
        ...(files.length > 0
          ? [
              `${files.length} uncommitted file${files.length === 1 ? '' : 's'} (${files.slice(0, 10).join(', ')})`,
            ]
          : []),
        ...(commits > 0
          ? [`${commits} commit${commits === 1 ? '' : 's'} on ${wt.branch} that no other branch has`]
          : []),
      ];
      throw new AppError('CONFLICT', `Deleting would lose ${lost.join(' and ')}; confirm to delete anyway.`, {
        details: files,
      });
    }
    if (problem === null)
      await step(() =>
        gitOk(
          top,
          ['worktree', 'remove', ...(force ? ['--force'] : []), '--', wt.path],
          'Removing the worktree',
        ),
      );
    else await this.prune(top, wt);
    const exists = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${wt.branch}`]);
    if (exists.code === 0)
      await step(() => gitOk(top, ['branch', '-D', '--', wt.branch], 'Deleting the branch'));
  }
}
