import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadMemorySettings, resolveMemoryDir } from './memory-settings';
import { memoryDirFor } from '../memory/dir/paths';

/** A home folder with `.carapace` in it, a project, and a policy file path, all in a temp folder. */
function setup() {
  const root = tempDir();
  const userHome = path.join(root, 'home');
  const carapaceHome = path.join(userHome, '.carapace');
  const project = path.join(root, 'project');
  mkdirSync(carapaceHome, { recursive: true });
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  const files = {
    user: path.join(carapaceHome, 'settings.json'),
    project: path.join(project, '.claude', 'settings.json'),
    local: path.join(project, '.claude', 'settings.local.json'),
    policy: path.join(root, 'managed-settings.json'),
  };
  const write = (which: keyof typeof files, value: unknown) =>
    writeFileSync(files[which], JSON.stringify(value));
  const input = {
    locations: { home: carapaceHome, projectRoot: project, policyFile: files.policy },
    userHome,
    env: {},
  };
  return { root, userHome, carapaceHome, project, write, input };
}

describe('loadMemorySettings', () => {
  it('is on, at the default directory, with no settings at all', () => {
    const s = setup();
    const r = resolveMemoryDir(s.input);
    expect(r.settings.autoMemoryEnabled).toBe(true);
    expect(r.dir).toBe(memoryDirFor({ carapaceHome: s.carapaceHome, projectRoot: s.project }));
  });

  it('ignores autoMemoryDirectory "~/.ssh" in the project settings (a repository cannot aim memory)', () => {
    const s = setup();
    mkdirSync(path.join(s.userHome, '.ssh'));
    s.write('project', { autoMemoryDirectory: '~/.ssh', autoMemoryEnabled: false });
    const r = resolveMemoryDir(s.input);
    expect(r.settings.autoMemoryDirectory).toBeNull();
    expect(r.settings.autoMemoryEnabled).toBe(true);
    expect(r.dir).toBe(memoryDirFor({ carapaceHome: s.carapaceHome, projectRoot: s.project }));
  });

  it('refuses "~/.ssh" and other dot-folders in user settings, with a reason', () => {
    const s = setup();
    for (const dir of ['~/.ssh', '~/.ssh/memory', '~/.gnupg', '~/.aws/x', '~/.bashrc.d']) {
      s.write('user', { autoMemoryDirectory: dir });
      const r = loadMemorySettings(s.input);
      expect(r.autoMemoryDirectory, dir).toBeNull();
      expect(r.problems[0], dir).toMatch(/off limits/);
    }
  });

  it('honours a user setting inside the home folder, by ~/ or absolute path', () => {
    const s = setup();
    s.write('user', { autoMemoryDirectory: '~/notes/memory' });
    expect(loadMemorySettings(s.input).autoMemoryDirectory).toBe(path.join(s.userHome, 'notes', 'memory'));
    s.write('user', { autoMemoryDirectory: path.join(s.userHome, 'm') });
    expect(resolveMemoryDir(s.input).dir).toBe(path.join(s.userHome, 'm'));
  });

  it('refuses the home folder itself, folders outside it, ~/.., relative paths, and a link out of home', () => {
    const s = setup();
    symlinkSync(path.join(s.root, 'project'), path.join(s.userHome, 'link'));
    for (const dir of [
      '~',
      '~/',
      '~/..',
      'notes',
      s.userHome,
      path.join(s.root, 'elsewhere'),
      '~/link/m',
      '//srv/x',
    ]) {
      s.write('user', { autoMemoryDirectory: dir });
      const r = loadMemorySettings(s.input);
      expect(r.autoMemoryDirectory, dir).toBeNull();
      expect(r.problems, dir).toHaveLength(1);
    }
  });

  it('allows the memory folders of Carapace and Claude Code although they are dot-folders', () => {
    const s = setup();
    s.write('user', { autoMemoryDirectory: '~/.claude/projects/x/memory' });
    expect(loadMemorySettings(s.input).autoMemoryDirectory).toBe(
      path.join(s.userHome, '.claude', 'projects', 'x', 'memory'),
    );
  });

  it("takes no autoMemoryDirectory from local settings (a repository can ship them), not even another project's memory", () => {
    const s = setup();
    // Another project's memory folder: writable unasked, and its MEMORY.md read into this prompt.
    const victim = memoryDirFor({ carapaceHome: s.carapaceHome, projectRoot: path.join(s.userHome, 'bank') });
    for (const value of [
      victim,
      '~/.claude/projects/other/memory',
      path.join(s.carapaceHome, 'projects', 'shared', 'memory'),
      '~/notes',
    ]) {
      s.write('local', { autoMemoryDirectory: value });
      const r = loadMemorySettings(s.input);
      expect(r.autoMemoryDirectory).toBeNull();
      expect(r.directoryFrom).toBe('default');
      expect(r.problems[0]).toMatch(/local settings.*a repository can ship that file/);
      expect(resolveMemoryDir(s.input).dir).toBe(
        memoryDirFor({ carapaceHome: s.carapaceHome, projectRoot: s.project }),
      );
    }
    // The user's own setting still applies beneath the refused local one.
    s.write('user', { autoMemoryDirectory: '~/.claude/projects/u/memory' });
    expect(loadMemorySettings(s.input).directoryFrom).toBe('user');
  });

  it('takes policy over user for the directory, and lets the policy use any absolute path', () => {
    const s = setup();
    s.write('user', { autoMemoryDirectory: '~/u', autoMemoryEnabled: true });
    s.write('local', { autoMemoryDirectory: '~/.claude/projects/l', autoMemoryEnabled: true });
    expect(loadMemorySettings(s.input).autoMemoryDirectory).toBe(path.join(s.userHome, 'u'));
    expect(loadMemorySettings(s.input).directoryFrom).toBe('user');
    expect(loadMemorySettings(s.input).enabledFrom).toBe('local');
    s.write('policy', { autoMemoryDirectory: '/srv/memory', autoMemoryEnabled: false });
    const r = loadMemorySettings(s.input);
    expect(r.autoMemoryDirectory).toBe('/srv/memory');
    expect(r.autoMemoryEnabled).toBe(false);
    expect(resolveMemoryDir(s.input).dir).toBeNull();
  });

  it('turns memory off with autoMemoryEnabled: false or the environment, and reports wrong types', () => {
    const s = setup();
    s.write('user', { autoMemoryEnabled: 'no' });
    expect(loadMemorySettings(s.input)).toMatchObject({
      autoMemoryEnabled: true,
      problems: [expect.any(String)],
    });
    s.write('user', { autoMemoryEnabled: false });
    expect(loadMemorySettings(s.input).autoMemoryEnabled).toBe(false);
    s.write('user', {});
    expect(
      loadMemorySettings({ ...s.input, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } }).autoMemoryEnabled,
    ).toBe(false);
  });
});
