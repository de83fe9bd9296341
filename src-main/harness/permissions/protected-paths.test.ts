import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { protectedPathReason, sandboxWriteDenials } from './protected-paths';

describe('protectedPathReason', () => {
  const root = '/work/project';
  const at = (rel: string) => protectedPathReason(path.join(root, rel), root);

  it('names why settings, git internals, editor and shell start-up files are protected', () => {
    expect(at('.claude/settings.local.json')).toContain('widen the agent');
    expect(at('.claude/agents/reviewer.md')).toContain('.claude is');
    expect(at('.git/config')).toContain('git runs the hooks');
    expect(at('.git/hooks/pre-commit')).toContain('.git is');
    expect(at('.git')).toContain('git internals');
    expect(at('sub/repo/.git/commondir')).toContain('sub/repo/.git is');
    expect(at('.vscode/tasks.json')).toContain('editor');
    expect(at('.mcp.json')).toContain('MCP');
    expect(at('.bashrc')).toContain('shell start-up');
    expect(at('.envrc')).toContain('direnv');
    expect(at('.gitmodules')).toContain('submodule');
    expect(at('packages/a/.npmrc')).toContain('build tool');
    // Case does not hide a name (case-insensitive file systems).
    expect(at('.Claude/Settings.json')).toContain('.claude is');
    expect(at('.GIT/config')).toContain('.git is');
  });

  it('leaves ordinary files alone, including lookalikes and .claude/worktrees checkouts', () => {
    for (const rel of [
      'src/index.ts',
      'README.md',
      'docs/.bashrc.md',
      'git/config',
      '.github/workflows/ci.yml',
      'claude/settings.json',
      '.claude/worktrees/feature/src/a.ts',
    ])
      expect(at(rel), rel).toBeNull();
  });

  it('the config files a hostile model would plant for later are all protected: commands, skills, agents, MCP', () => {
    for (const rel of [
      '.claude/commands/deploy.md',
      '.claude/commands/ns/deep/x.md',
      '.claude/skills/x/SKILL.md',
      '.claude/agents/x.md',
      '.claude/hooks/guard.sh',
      '.mcp.json',
      'packages/app/.mcp.json',
      'packages/app/.claude/commands/x.md',
      '.claude.json',
    ])
      expect(at(rel), rel).not.toBeNull();
  });

  it('a link under .claude/worktrees that leads back into .claude is protected by where it leads', () => {
    const project = tempDir('carapace-protected-wt-');
    mkdirSync(path.join(project, '.claude', 'worktrees'), { recursive: true });
    symlinkSync(path.join(project, '.claude'), path.join(project, '.claude', 'worktrees', 'x'));
    const through = path.join(project, '.claude', 'worktrees', 'x', 'settings.local.json');
    expect(protectedPathReason(through, project)).toContain('.claude is');
    expect(
      protectedPathReason(path.join(project, '.claude', 'worktrees', 'x', 'commands', 'a.md'), project),
    ).toContain('.claude is');
  });

  it('inside a .claude/worktrees checkout, its own git internals and settings stay protected', () => {
    expect(at('.claude/worktrees/w/.git')).toContain('.git is');
    expect(at('.claude/worktrees/w/.git/hooks/pre-commit')).toContain('.git is');
    expect(at('.claude/worktrees/w/.claude/settings.json')).toContain('.claude is');
    expect(at('.claude/worktrees/w/.vscode/tasks.json')).toContain('editor');
    expect(at('lefthook-local.yml')).toContain('hook manager');
  });

  it('judges where a link leads, not only its name', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, '.git'));
    writeFileSync(path.join(dir, '.git', 'config'), '');
    symlinkSync(path.join(dir, '.git', 'config'), path.join(dir, 'notes.txt'));
    symlinkSync(path.join(dir, '.git'), path.join(dir, 'plain'));
    expect(protectedPathReason(path.join(dir, 'notes.txt'), dir)).toContain('.git is');
    expect(protectedPathReason(path.join(dir, 'plain', 'hooks', 'post-checkout'), dir)).toContain('.git is');
    // Control: a link to an ordinary file is an ordinary file.
    writeFileSync(path.join(dir, 'a.txt'), '');
    symlinkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    expect(protectedPathReason(path.join(dir, 'b.txt'), dir)).toBeNull();
  });
});

describe('sandboxWriteDenials', () => {
  it('covers the root’s settings, git internals (existing commondir, a worktree .git file) and nested ones', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    mkdirSync(path.join(dir, '.git', 'info'));
    writeFileSync(path.join(dir, '.git', 'commondir'), '..');
    mkdirSync(path.join(dir, '.git', 'modules'));
    mkdirSync(path.join(dir, 'vendor', 'lib', '.git'), { recursive: true });
    mkdirSync(path.join(dir, 'packages', 'app', '.vscode'), { recursive: true });
    writeFileSync(path.join(dir, 'packages', 'app', '.envrc'), '');
    mkdirSync(path.join(dir, '.husky'));
    mkdirSync(path.join(dir, 'tools', 'githooks'), { recursive: true });
    writeFileSync(path.join(dir, '.git', 'config'), '[core]\n\thooksPath = tools/githooks\n');
    writeFileSync(path.join(dir, '.pre-commit-config.yaml'), '');
    mkdirSync(path.join(dir, 'node_modules', 'x', '.git'), { recursive: true });
    const denied = sandboxWriteDenials([dir]);
    for (const rel of [
      '.claude',
      '.mcp.json',
      '.vscode',
      '.idea',
      '.bashrc',
      '.envrc',
      '.gitmodules',
      '.git/config',
      '.git/hooks',
      '.git/commondir',
      '.git/info',
      '.git/config.worktree',
      '.git/modules',
      'vendor/lib/.git/config',
      'vendor/lib/.git/hooks',
      'packages/app/.vscode',
      'packages/app/.envrc',
      '.husky',
      'tools/githooks',
      '.pre-commit-config.yaml',
    ])
      expect(denied, rel).toContain(path.join(dir, rel));
    // Folders the agent must be able to write are not in the list.
    expect(denied).not.toContain(path.join(dir, '.git'));
    expect(denied).not.toContain(path.join(dir, '.git', 'objects'));
    expect(denied.some((p) => p.includes('node_modules'))).toBe(false);
    // `.claude` now exists, so the sandbox can hold it read-only while Carapace writes rules in it.
    expect(denied).toContain(path.join(dir, '.claude'));
  });

  it('protects a worktree’s .git file itself, and resolves a symlinked root', () => {
    const real = tempDir();
    writeFileSync(path.join(real, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    const parent = tempDir();
    const link = path.join(parent, 'link');
    symlinkSync(real, link);
    const denied = sandboxWriteDenials([link]);
    expect(denied).toContain(path.join(real, '.git'));
    expect(denied.every((p) => !p.startsWith(link))).toBe(true);
  });
});
