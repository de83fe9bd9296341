import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp';
import { claudeCodeDirs, listClaudeCodeFiles } from './dirs';
import { claudeCodeEnabled } from './setting';

describe('claudeCodeDirs', () => {
  it("reads $CLAUDE_CONFIG_DIR as a comma-separated list, keeping each folder's projects/ that exists", () => {
    const root = tempDir();
    for (const d of ['a/projects', 'b', 'c/projects']) mkdirSync(path.join(root, d), { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: ` ${root}/a , ${root}/b,${root}/c,,${root}/a,${root}/missing` };
    expect(claudeCodeDirs(env, '/nowhere')).toEqual([
      path.join(root, 'a/projects'),
      path.join(root, 'c/projects'),
    ]);
  });

  it('falls back to ~/.config/claude and ~/.claude (XDG_CONFIG_HOME honoured), only those that exist', () => {
    const home = tempDir();
    expect(claudeCodeDirs({}, home)).toEqual([]);
    mkdirSync(path.join(home, '.claude/projects'), { recursive: true });
    expect(claudeCodeDirs({ CLAUDE_CONFIG_DIR: '  ' }, home)).toEqual([path.join(home, '.claude/projects')]);
    mkdirSync(path.join(home, '.config/claude/projects'), { recursive: true });
    expect(claudeCodeDirs({}, home)).toEqual([
      path.join(home, '.config/claude/projects'),
      path.join(home, '.claude/projects'),
    ]);
    mkdirSync(path.join(home, 'xdg/claude/projects'), { recursive: true });
    expect(claudeCodeDirs({ XDG_CONFIG_HOME: path.join(home, 'xdg') }, home)[0]).toBe(
      path.join(home, 'xdg/claude/projects'),
    );
  });
});

describe('listClaudeCodeFiles', () => {
  it("finds .jsonl files at any depth (sub-agents' too), not other files, and reports links instead of following them", () => {
    const dir = path.join(tempDir(), 'projects');
    mkdirSync(path.join(dir, '-p/s1/subagents'), { recursive: true });
    writeFileSync(path.join(dir, '-p/s1.jsonl'), '');
    writeFileSync(path.join(dir, '-p/s1/subagents/agent-x.jsonl'), '');
    writeFileSync(path.join(dir, '-p/notes.txt'), '');
    symlinkSync(path.join(dir, '-p/s1.jsonl'), path.join(dir, '-p/s2.jsonl'));
    symlinkSync(dir, path.join(dir, '-p/loop'));
    const { files, problems } = listClaudeCodeFiles(dir);
    expect(files).toEqual([path.join(dir, '-p/s1.jsonl'), path.join(dir, '-p/s1/subagents/agent-x.jsonl')]);
    expect(problems).toEqual([expect.stringMatching(/s2\.jsonl: skipped, a symbolic link/)]);
  });

  it('reports a folder it cannot list', () => {
    expect(listClaudeCodeFiles('/nonexistent-carapace-dir').problems).toEqual([
      expect.stringMatching(/could not be listed/),
    ]);
  });
});

describe('claudeCodeEnabled', () => {
  it('is on by default when a projects folder exists, off without one, and follows usage.includeClaudeCode', () => {
    expect(claudeCodeEnabled({}, ['/x/projects'])).toBe(true);
    expect(claudeCodeEnabled({}, [])).toBe(false);
    expect(claudeCodeEnabled({ usage: { includeClaudeCode: false } }, ['/x/projects'])).toBe(false);
    expect(claudeCodeEnabled({ usage: { includeClaudeCode: true } }, [])).toBe(false);
    // A malformed value is the default, not an error.
    expect(claudeCodeEnabled({ usage: { includeClaudeCode: 'no' } }, ['/x/projects'])).toBe(true);
    expect(claudeCodeEnabled(null, ['/x/projects'])).toBe(true);
  });
});
