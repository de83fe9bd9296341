import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp';
import { memoryDirFor, memorySlug, repositoryRoot, teamMemoryDir } from './paths';

/** A repository at `<root>/repo` with a linked worktree at `<root>/wt`, laid out as git writes them. */
function repoWithWorktree(): { repo: string; worktree: string } {
  const root = tempDir();
  const repo = path.join(root, 'repo');
  const worktree = path.join(root, 'wt');
  mkdirSync(path.join(repo, '.git', 'worktrees', 'wt'), { recursive: true });
  mkdirSync(worktree);
  writeFileSync(path.join(worktree, '.git'), `gitdir: ${path.join(repo, '.git', 'worktrees', 'wt')}\n`);
  writeFileSync(path.join(repo, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
  writeFileSync(path.join(repo, '.git', 'worktrees', 'wt', 'gitdir'), `${path.join(worktree, '.git')}\n`);
  return { repo, worktree };
}

describe('memoryDirFor', () => {
  it('is $CARAPACE_HOME/projects/<slug>/memory', () => {
    const home = tempDir();
    const project = tempDir();
    const dir = memoryDirFor({ carapaceHome: home, projectRoot: project });
    expect(path.dirname(path.dirname(dir))).toBe(path.join(home, 'projects'));
    expect(path.basename(dir)).toBe('memory');
    expect(path.basename(path.dirname(dir))).toMatch(/^[A-Za-z0-9-]+$/);
  });

  it('gives a repository and its worktrees one slug', () => {
    const { repo, worktree } = repoWithWorktree();
    expect(repositoryRoot(worktree)).toBe(repositoryRoot(repo));
    expect(memorySlug(worktree)).toBe(memorySlug(repo));
    const home = tempDir();
    expect(memoryDirFor({ carapaceHome: home, projectRoot: worktree })).toBe(
      memoryDirFor({ carapaceHome: home, projectRoot: repo }),
    );
  });

  it('uses the repository from a subfolder too, and is stable across calls', () => {
    const { repo } = repoWithWorktree();
    const sub = path.join(repo, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    expect(memorySlug(sub)).toBe(memorySlug(repo));
    expect(memorySlug(repo)).toBe(memorySlug(repo));
  });

  it('gives different repositories different slugs', () => {
    const a = repoWithWorktree().repo;
    const b = repoWithWorktree().repo;
    expect(memorySlug(a)).not.toBe(memorySlug(b));
  });

  it("does not take another project's slug from a .git file or link the folder ships", () => {
    const { repo } = repoWithWorktree();
    const root = tempDir();
    const own = (name: string) => {
      const dir = path.join(root, name);
      mkdirSync(dir);
      return dir;
    };
    // `gitdir:` naming the other project's folder, its `.git`, or one of its real worktree folders
    // (whose back link names that worktree, not this file).
    const targets = [repo, path.join(repo, '.git'), path.join(repo, '.git', 'worktrees', 'wt')];
    for (const [i, target] of targets.entries()) {
      const hostile = own(`hostile${i}`);
      writeFileSync(path.join(hostile, '.git'), `gitdir: ${target}\n`);
      expect(repositoryRoot(hostile)).toBe(realpathSync(hostile));
      expect(memorySlug(hostile)).not.toBe(memorySlug(repo));
    }
    // A `.git` link to the other project's `.git` folder.
    const linked = own('linked');
    symlinkSync(path.join(repo, '.git'), path.join(linked, '.git'));
    expect(memorySlug(linked)).not.toBe(memorySlug(repo));
    expect(repositoryRoot(path.join(linked))).toBe(realpathSync(linked));
  });

  it('takes an accepted settings directory over the default', () => {
    const custom = path.join(tempDir(), 'mem');
    expect(memoryDirFor({ carapaceHome: tempDir(), projectRoot: tempDir(), settingsDir: custom })).toBe(
      custom,
    );
    expect(teamMemoryDir(custom)).toBe(path.join(custom, 'team'));
  });
});
