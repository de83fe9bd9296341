import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { GitGuard, isHarmlessGitConfig } from './git-guard';

function gitInit(dir: string): void {
  execFileSync('git', ['init', '-q', dir]);
}

/** Resolves once `p` no longer exists (the watcher acted), or rejects after a bound. */
async function gone(p: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (existsSync(p)) {
    if (Date.now() > until) throw new Error(`${p} is still there`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('isHarmlessGitConfig', () => {
  it('accepts what git init and clone write, and nothing that runs a program', () => {
    expect(
      isHarmlessGitConfig(
        '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
      ),
    ).toBe(true);
    for (const bad of [
      '[core]\n\tfsmonitor = touch /tmp/pwned',
      '[core]\n\thooksPath = /tmp/hooks',
      '[core]\n\tsshCommand = sh -c id',
      '[include]\n\tpath = /tmp/evil',
      '[alias]\n\tst = !sh -c id',
      '[filter "x"]\n\tclean = sh -c id',
      '[diff "x"]\n\ttextconv = sh',
      'garbage line without section',
    ])
      expect(isHarmlessGitConfig(bad), bad).toBe(false);
  });
});

describe('GitGuard', () => {
  it('moves a .git/commondir created during a command aside at once, and reports it', async () => {
    const root = tempDir();
    gitInit(root);
    const quarantine = path.join(tempDir(), 'quarantine');
    const guard = new GitGuard([root], quarantine);
    const planted = path.join(root, '.git', 'commondir');
    writeFileSync(planted, '/tmp/elsewhere\n');
    // The watcher acts while the command would still be running, not only at its end.
    await gone(planted);
    const notes = guard.finish();
    expect(notes.join('\n')).toContain('commondir');
    expect(readdirSync(quarantine).some((f) => f.includes('commondir'))).toBe(true);
    // git works normally afterwards.
    expect(execFileSync('git', ['-C', root, 'status', '--short'], { encoding: 'utf8' })).toBe('');
  });

  it('leaves a commondir that was there before alone (the sandbox mounts it read-only instead)', () => {
    const root = tempDir();
    gitInit(root);
    writeFileSync(path.join(root, '.git', 'commondir'), '.\n');
    const guard = new GitGuard([root], path.join(tempDir(), 'q'));
    expect(guard.finish()).toEqual([]);
    expect(existsSync(path.join(root, '.git', 'commondir'))).toBe(true);
  });

  it('checks a repository the command created: planted hooks and a config that runs programs go', () => {
    const root = tempDir();
    const guard = new GitGuard([root], path.join(tempDir(), 'q'));
    gitInit(root);
    writeFileSync(path.join(root, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\ntouch /tmp/pwned\n');
    execFileSync('git', ['-C', root, 'config', 'core.fsmonitor', 'touch /tmp/pwned']);
    const notes = guard.finish();
    expect(notes.join('\n')).toMatch(/post-checkout/);
    expect(notes.join('\n')).toMatch(/config/);
    expect(existsSync(path.join(root, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(existsSync(path.join(root, '.git', 'config'))).toBe(false);
    // The samples git itself installs stay.
    expect(readdirSync(path.join(root, '.git', 'hooks')).every((f) => f.endsWith('.sample'))).toBe(true);
  });

  it('control: a plain `git init` by the agent is kept as it is', () => {
    const root = tempDir();
    const guard = new GitGuard([root], path.join(tempDir(), 'q'));
    gitInit(root);
    expect(guard.finish()).toEqual([]);
    expect(existsSync(path.join(root, '.git', 'config'))).toBe(true);
  });

  it('moves a new .git file (a pointer to a repository elsewhere) aside', () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'src'));
    const guard = new GitGuard([root], path.join(tempDir(), 'q'));
    writeFileSync(path.join(root, '.git'), 'gitdir: /tmp/evil\n');
    expect(guard.finish().join('\n')).toContain('.git file');
    expect(existsSync(path.join(root, '.git'))).toBe(false);
  });

  describe('repositories made inside the project during a command', () => {
    /** The reviewer's attack: a nested repository with an fsmonitor, tied into the root's index. */
    function plantSubmodule(root: string, rel: string, leak: string): void {
      const sub = path.join(root, rel);
      mkdirSync(sub, { recursive: true });
      gitInit(sub);
      const git = (cwd: string, ...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], {
          cwd,
          encoding: 'utf8',
        });
      git(sub, 'commit', '-q', '--allow-empty', '-m', 's');
      git(sub, 'config', 'core.fsmonitor', `touch ${leak}; false`);
      const head = git(sub, 'rev-parse', 'HEAD').trim();
      git(root, 'update-index', '--add', '--cacheinfo', `160000,${head},${rel}`);
    }

    for (const rel of ['sub', 'a/b/c/d/deep']) {
      it(`a nested repository with an fsmonitor tied in as a submodule (${rel}) loses its config before anyone runs git`, () => {
        const root = tempDir();
        gitInit(root);
        const leak = path.join(tempDir(), 'leaked');
        const guard = new GitGuard([root], path.join(tempDir(), 'q'));
        plantSubmodule(root, rel, leak);
        expect(guard.finish().join('\n')).toContain('config');
        execFileSync('git', ['status'], { cwd: root, stdio: 'ignore' });
        expect(existsSync(leak)).toBe(false);
      });
    }

    it('control: the person’s own nested repository and its settings are left alone', () => {
      const root = tempDir();
      gitInit(root);
      mkdirSync(path.join(root, 'vendor', 'lib'), { recursive: true });
      gitInit(path.join(root, 'vendor', 'lib'));
      execFileSync('git', ['-C', path.join(root, 'vendor', 'lib'), 'config', 'pull.rebase', 'true']);
      const guard = new GitGuard([root], path.join(tempDir(), 'q'));
      expect(guard.finish()).toEqual([]);
      expect(readFileSync(path.join(root, 'vendor', 'lib', '.git', 'config'), 'utf8')).toContain('rebase');
    });

    it('a .git/modules folder the command created is moved aside', () => {
      const root = tempDir();
      gitInit(root);
      const guard = new GitGuard([root], path.join(tempDir(), 'q'));
      mkdirSync(path.join(root, '.git', 'modules', 'x', 'hooks'), { recursive: true });
      expect(guard.finish().join('\n')).toContain('modules');
      expect(existsSync(path.join(root, '.git', 'modules'))).toBe(false);
    });
  });

  describe('what the second review found', () => {
    it('a nested repository moved away and made anew at the same path is checked', () => {
      const root = tempDir();
      gitInit(root);
      mkdirSync(path.join(root, 'sub'));
      gitInit(path.join(root, 'sub'));
      const guard = new GitGuard([root], path.join(tempDir(), 'q'));
      execFileSync('mv', [path.join(root, 'sub'), path.join(root, 'sub_old')]);
      mkdirSync(path.join(root, 'sub'));
      gitInit(path.join(root, 'sub'));
      execFileSync('git', ['-C', path.join(root, 'sub'), 'config', 'core.fsmonitor', 'touch /tmp/pwned']);
      expect(guard.finish().join('\n')).toContain('config');
      expect(existsSync(path.join(root, 'sub', '.git', 'config'))).toBe(false);
    });

    it('a new repository whose config or hooks are links, or whose config is a FIFO, loses them without blocking', () => {
      const root = tempDir();
      gitInit(root);
      const guard = new GitGuard([root], path.join(tempDir(), 'q'));
      for (const name of ['a', 'b']) {
        mkdirSync(path.join(root, name));
        gitInit(path.join(root, name));
      }
      writeFileSync(path.join(root, 'notes.ini'), '[core]\n\tbare = false\n');
      execFileSync('rm', [path.join(root, 'a', '.git', 'config')]);
      symlinkSync('../../notes.ini', path.join(root, 'a', '.git', 'config'));
      execFileSync('rm', ['-r', path.join(root, 'a', '.git', 'hooks')]);
      symlinkSync('../../hk', path.join(root, 'a', '.git', 'hooks'));
      execFileSync('rm', [path.join(root, 'b', '.git', 'config')]);
      execFileSync('mkfifo', [path.join(root, 'b', '.git', 'config')]);
      const notes = guard.finish().join('\n');
      expect(notes).toContain(path.join(root, 'a', '.git', 'config'));
      expect(notes).toContain(path.join(root, 'a', '.git', 'hooks'));
      expect(notes).toContain(path.join(root, 'b', '.git', 'config'));
      expect(existsSync(path.join(root, 'b', '.git', 'config'))).toBe(false);
    });
  });
});
