import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { worktreeProblem } from '../worktree-check';
import { WorktreeService } from './worktree-service';

let dir: string;
let repo: string;
let data: string;
let svc: WorktreeService;

const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/** HEAD, the index's tree, the files' status and whether a merge is under way: what "nothing changed" means. */
const snapshot = (cwd: string) => ({
  head: sh(cwd, 'rev-parse', 'HEAD'),
  index: sh(cwd, 'write-tree'),
  status: sh(cwd, 'status', '--porcelain', '--untracked-files=all'),
  merging: existsSync(path.join(cwd, '.git', 'MERGE_HEAD')),
  file: readFileSync(path.join(cwd, 'a.txt'), 'utf8'),
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'carapace-wt-'));
  repo = path.join(dir, 'repo');
  data = path.join(dir, 'data', 'worktrees');
  mkdirSync(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  sh(repo, 'config', 'user.name', 'T');
  sh(repo, 'config', 'user.email', 't@example.com');
  writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\nthree\n');
  sh(repo, 'add', '.');
  sh(repo, 'commit', '-q', '-m', 'first');
  svc = new WorktreeService(data);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('WorktreeService', () => {
  it('says whether a folder is in git, with its branches (current first)', async () => {
    sh(repo, 'branch', 'dev');
    expect(await svc.info(repo)).toEqual({ isGit: true, branches: ['main', 'dev'], current: 'main' });
    const plain = path.join(dir, 'plain');
    mkdirSync(plain);
    expect(await svc.info(plain)).toEqual({ isGit: false, branches: [], current: null });
  });

  it('creates a worktree on a new branch inside the data folder, without running the repository hooks', async () => {
    const marker = path.join(dir, 'hook-ran');
    const hook = path.join(repo, '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(hook, 0o755);
    const wt = await svc.create(repo, { base: 'main', name: 's1' });
    expect(wt.branch).toBe('carapace/s1');
    expect(path.relative(data, wt.path).startsWith('..')).toBe(false);
    expect(readFileSync(path.join(wt.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(sh(wt.path, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('carapace/s1');
    expect(existsSync(marker)).toBe(false);
    // The hook is real: an ordinary checkout runs it.
    sh(repo, 'checkout', '-q', '-b', 'other');
    expect(existsSync(marker)).toBe(true);
  });

  it('puts new worktrees in a configured base directory, refuses a relative one or one inside the repository', async () => {
    let base: string | null = path.join(dir, 'elsewhere');
    const configured = new WorktreeService(data, () => base);
    const wt = await configured.create(repo, { base: 'main', name: 's1' });
    expect(path.relative(path.join(dir, 'elsewhere'), wt.path).startsWith('..')).toBe(false);
    expect(existsSync(data)).toBe(false);
    // Its records stay usable: status and removal accept a worktree in the base directory.
    expect((await configured.status(repo, wt)).exists).toBe(true);
    // The data folder's service (no base directory) does not take it for one of its own.
    await refusal(svc.status(repo, wt));
    base = 'relative/dir';
    expect((await refusal(configured.create(repo, { base: 'main', name: 's2' }))).message).toMatch(
      /absolute path/,
    );
    base = path.join(repo, 'wt');
    expect((await refusal(configured.create(repo, { base: 'main', name: 's3' }))).message).toMatch(
      /inside the repository/,
    );
    expect(existsSync(path.join(repo, 'wt'))).toBe(false);
    expect(sh(repo, 'branch', '--list', 'carapace/s3')).toBe('');
  });

  it('does not run a smudge filter the repository configures on checkout', async () => {
    const marker = path.join(dir, 'filter-ran');
    sh(repo, 'config', 'filter.evil.smudge', `touch ${marker}; cat`);
    writeFileSync(path.join(repo, '.gitattributes'), '*.txt filter=evil\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'attrs');
    rmSync(marker, { force: true });
    await svc.create(repo, { base: 'main', name: 'f1' });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses hostile branch and base names with a clear error', async () => {
    for (const name of ['-x', '../../etc', 'a..b', 'a b', 'x.lock', 'with\nnewline', '']) {
      const e = await refusal(svc.create(repo, { base: 'main', name }));
      expect(e.code).toBe('INVALID_INPUT');
    }
    expect((await refusal(svc.create(repo, { base: '--upload-pack=x', name: 'ok' }))).code).toBe(
      'INVALID_INPUT',
    );
    expect((await refusal(svc.create(repo, { base: 'nope', name: 'ok' }))).code).toBe('NOT_FOUND');
    expect(existsSync(data)).toBe(false);
  });

  it("fetches first when asked and starts from the base branch's upstream", async () => {
    const remote = path.join(dir, 'remote.git');
    sh(dir, 'clone', '-q', '--bare', repo, remote);
    sh(repo, 'remote', 'add', 'origin', remote);
    sh(repo, 'fetch', '-q', 'origin');
    sh(repo, 'branch', '-q', '--set-upstream-to=origin/main', 'main');
    // Someone else pushes to the remote.
    const other = path.join(dir, 'other');
    sh(dir, 'clone', '-q', remote, other);
    writeFileSync(path.join(other, 'pushed.txt'), 'from the remote\n');
    sh(other, 'add', '.');
    sh(other, '-c', 'user.name=O', '-c', 'user.email=o@example.com', 'commit', '-q', '-m', 'remote work');
    sh(other, 'push', '-q', 'origin', 'main');
    const plain = await svc.create(repo, { base: 'main', name: 'nofetch' });
    expect(existsSync(path.join(plain.path, 'pushed.txt'))).toBe(false);
    const fetched = await svc.create(repo, { base: 'main', name: 'fetched', fetch: true });
    expect(readFileSync(path.join(fetched.path, 'pushed.txt'), 'utf8')).toBe('from the remote\n');
  });

  it('will not fetch a remote whose upload-pack command the repository chose', async () => {
    const marker = path.join(dir, 'upload-pack-ran');
    sh(repo, 'remote', 'add', 'origin', repo);
    sh(repo, 'config', 'branch.main.remote', 'origin');
    sh(repo, 'config', 'remote.origin.uploadpack', `touch ${marker}; git-upload-pack`);
    const e = await refusal(svc.create(repo, { base: 'main', name: 'evil', fetch: true }));
    expect(e.message).toContain('remote.origin.uploadpack');
    expect(existsSync(marker)).toBe(false);
    sh(repo, 'config', '--unset', 'remote.origin.uploadpack');
    sh(repo, 'config', 'credential.helper', `!touch ${marker}`);
    const helper = await refusal(svc.create(repo, { base: 'main', name: 'evil2', fetch: true }));
    expect(helper.message).toContain('credential.helper');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a worktree record pointing outside the data folder', async () => {
    const e = await refusal(
      svc.remove(repo, { path: repo, prefix: '', branch: 'carapace/x', base: 'main' }, true),
    );
    expect(e.code).toBe('FORBIDDEN');
    expect(existsSync(path.join(repo, 'a.txt'))).toBe(true);
  });

  it('counts ahead and behind, fast-forwards a merge and commits the worktree changes first', async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'ff' });
    writeFileSync(path.join(wt.path, 'a.txt'), 'one\nTWO\nthree\n');
    expect(await svc.status(repo, wt)).toEqual({
      ahead: 0,
      behind: 0,
      dirty: 1,
      exists: true,
      problem: null,
    });
    const r = await svc.merge(repo, wt, 'session work');
    expect(r.kind).toBe('fast-forward');
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(sh(repo, 'log', '-1', '--format=%s').trim()).toBe('session work');
    expect(await svc.status(repo, wt)).toEqual({
      ahead: 0,
      behind: 0,
      dirty: 0,
      exists: true,
      problem: null,
    });
  });

  it('makes a merge commit when the base moved on without conflict', async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'mc' });
    writeFileSync(path.join(wt.path, 'b.txt'), 'new\n');
    writeFileSync(path.join(repo, 'c.txt'), 'main side\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'main moved');
    const r = await svc.merge(repo, wt, 'add b');
    expect(r.kind).toBe('merge-commit');
    expect(existsSync(path.join(repo, 'b.txt'))).toBe(true);
    expect(sh(repo, 'rev-list', '--parents', '-1', 'HEAD').trim().split(' ')).toHaveLength(3);
  });

  it('refuses a conflicting merge, names the files, and changes nothing in the main checkout', async () => {
    const one = await svc.create(repo, { base: 'main', name: 'one' });
    const two = await svc.create(repo, { base: 'main', name: 'two' });
    writeFileSync(path.join(one.path, 'a.txt'), 'one\nFROM ONE\nthree\n');
    writeFileSync(path.join(two.path, 'a.txt'), 'one\nFROM TWO\nthree\n');
    expect((await svc.merge(repo, one, 'one')).kind).toBe('fast-forward');
    expect(await svc.status(repo, two)).toEqual({
      ahead: 0,
      behind: 1,
      dirty: 1,
      exists: true,
      problem: null,
    });
    // An unrelated uncommitted file in the main checkout is no reason to refuse, and survives.
    writeFileSync(path.join(repo, 'notes.txt'), 'mine\n');
    const before = snapshot(repo);
    const e = await refusal(svc.merge(repo, two, 'two'));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toContain('a.txt');
    expect(e.details).toEqual(['a.txt']);
    expect(snapshot(repo)).toEqual(before);
    expect(readFileSync(path.join(two.path, 'a.txt'), 'utf8')).toBe('one\nFROM TWO\nthree\n');
  });

  it('refuses when the main checkout has uncommitted changes to a file the merge touches, or is on another branch', async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'dirty' });
    writeFileSync(path.join(wt.path, 'a.txt'), 'changed in worktree\n');
    writeFileSync(path.join(repo, 'a.txt'), 'changed in main\n');
    const before = snapshot(repo);
    const e = await refusal(svc.merge(repo, wt, 'x'));
    expect(e.message).toContain('uncommitted changes to files this merge touches: a.txt');
    expect(snapshot(repo)).toEqual(before);
    sh(repo, 'checkout', '-q', '--', 'a.txt');
    sh(repo, 'checkout', '-q', '-b', 'elsewhere');
    expect((await refusal(svc.merge(repo, wt, 'x'))).message).toContain('is on elsewhere, not main');
  });

  it('removes a worktree and its branch, refusing uncommitted changes unless forced', async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'gone' });
    writeFileSync(path.join(wt.path, 'a.txt'), 'unsaved\n');
    const e = await refusal(svc.remove(repo, wt, false));
    expect(e.message).toContain('1 uncommitted file (a.txt)');
    expect(existsSync(wt.path)).toBe(true);
    await svc.remove(repo, wt, true);
    expect(existsSync(wt.path)).toBe(false);
    expect(sh(repo, 'branch', '--list', 'carapace/gone').trim()).toBe('');
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('refuses to delete a branch with commits no other branch has until confirmed, naming the count', async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'work' });
    const commit = (msg: string) => {
      writeFileSync(path.join(wt.path, `${msg}.txt`), msg);
      sh(wt.path, 'add', '.');
      sh(wt.path, 'commit', '-q', '-m', msg);
    };
    commit('c1');
    commit('c2');
    writeFileSync(path.join(wt.path, 'loose.txt'), 'not committed\n');
    expect(await svc.loss(repo, wt)).toEqual({ files: ['loose.txt'], commits: 2 });
    const e = await refusal(svc.remove(repo, wt, false));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toContain('1 uncommitted file (loose.txt)');
    expect(e.message).toContain('2 commits on carapace/work that no other branch has');
    // Nothing was touched: the folder, its file and the branch are all there.
    expect(readFileSync(path.join(wt.path, 'loose.txt'), 'utf8')).toBe('not committed\n');
    expect(sh(repo, 'rev-list', '--count', 'carapace/work').trim()).toBe('3');
    // Commits another branch holds are not lost: only the one no branch has counts.
    rmSync(path.join(wt.path, 'loose.txt'));
    sh(repo, 'branch', 'keep', 'carapace/work');
    commit('c3');
    expect(await svc.loss(repo, wt)).toEqual({ files: [], commits: 1 });
    expect((await refusal(svc.remove(repo, wt, false))).message).toBe(
      'Deleting would lose 1 commit on carapace/work that no other branch has; confirm to delete anyway.',
    );
    await svc.remove(repo, wt, true);
    expect(existsSync(wt.path)).toBe(false);
    expect(sh(repo, 'branch', '--list', 'carapace/work').trim()).toBe('');
    // A branch whose commits are all merged goes without asking.
    const merged = await svc.create(repo, { base: 'main', name: 'merged' });
    await svc.remove(repo, merged, false);
    expect(sh(repo, 'branch', '--list', 'carapace/merged').trim()).toBe('');
  });

  it("finds a worktree folder removed by hand and prunes git's record of it, and only its own", async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'vanish' });
    // Someone else's worktree, on a drive not mounted now: git calls it prunable too.
    const theirs = path.join(dir, 'theirs');
    sh(repo, 'worktree', 'add', '-q', '-b', 'theirs', theirs);
    rmSync(theirs, { recursive: true, force: true });
    rmSync(wt.path, { recursive: true, force: true });
    const listed = () => sh(repo, 'worktree', 'list', '--porcelain');
    expect(listed()).toContain(`worktree ${wt.path}\n`);
    const [st, ...again] = await Promise.all([
      svc.status(repo, wt),
      svc.status(repo, wt),
      svc.status(repo, wt),
    ]);
    // Asked at once (the sidebar and the composer do), each answer still says what happened.
    expect(again.map((x) => x.exists)).toEqual([false, false]);
    expect(st.exists).toBe(false);
    expect(st.problem).toBe(`Its worktree was deleted (${wt.path} no longer exists).`);
    expect(listed()).not.toContain(`worktree ${wt.path}\n`);
    expect(listed()).toContain(`worktree ${theirs}\n`);
    // The branch stays (the session's commits are on it) until Delete, which now can delete it.
    expect(sh(repo, 'branch', '--list', 'carapace/vanish').trim()).toBe('carapace/vanish');
    await svc.remove(repo, wt, false);
    expect(sh(repo, 'branch', '--list', 'carapace/vanish').trim()).toBe('');
    expect(listed()).toContain(`worktree ${theirs}\n`);
  });

  it('takes a worktree folder recreated as a link (to /) or a plain folder for gone, and never runs git or deletes there', async () => {
    const wt = await svc.create(repo, { base: 'main', name: 'swapped' });
    expect(worktreeProblem(repo, wt)).toBeNull();
    const victim = path.join(dir, 'victim');
    mkdirSync(victim);
    writeFileSync(path.join(victim, 'precious.txt'), 'keep me\n');
    rmSync(wt.path, { recursive: true, force: true });
    symlinkSync('/', wt.path);
    expect(worktreeProblem(repo, wt)).toContain('was replaced by a link');
    rmSync(wt.path);
    symlinkSync(victim, wt.path);
    const st = await svc.status(repo, wt);
    expect(st).toMatchObject({ exists: false, dirty: 0 });
    expect(st.problem).toContain('was replaced by a link');
    const e = await refusal(svc.remove(repo, wt, true));
    expect(e.message).toContain("is no longer this session's worktree");
    expect(readdirSync(victim)).toEqual(['precious.txt']);
    expect(sh(repo, 'rev-parse', '--verify', '--quiet', 'refs/heads/carapace/swapped')).not.toBe('');
    // A plain folder put back at the path, even with a copied .git file, is not the worktree either.
    rmSync(wt.path);
    mkdirSync(wt.path);
    writeFileSync(path.join(wt.path, '.git'), `gitdir: ${path.join(repo, '.git')}\n`);
    expect(worktreeProblem(repo, wt)).toContain('is no longer a worktree of this repository');
    // A real worktree of another repository at that path is not this one.
    const other = path.join(dir, 'other');
    mkdirSync(other);
    sh(other, 'init', '-q', '-b', 'main');
    sh(
      other,
      '-c',
      'user.name=O',
      '-c',
      'user.email=o@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'o',
    );
    rmSync(wt.path, { recursive: true });
    sh(other, 'worktree', 'add', '-q', '-b', 'x', wt.path);
    expect(worktreeProblem(repo, wt)).toContain('is no longer a worktree of this repository');
  });
});
