import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { buildMemoryPrompt, loadMemoryPromptSection } from './memory-prompt';
import { memoryDirFor } from './dir/paths';

function setup() {
  const root = tempDir();
  const carapaceHome = path.join(root, '.carapace');
  const project = path.join(root, 'project');
  mkdirSync(project, { recursive: true });
  const input = {
    locations: { home: carapaceHome, projectRoot: project, policyFile: path.join(root, 'policy.json') },
    userHome: root,
    env: {},
  };
  const dir = memoryDirFor({ carapaceHome, projectRoot: project });
  return { root, carapaceHome, project, input, dir };
}

describe('buildMemoryPrompt', () => {
  it('states the directory, the four types and the six things never saved', () => {
    const text = buildMemoryPrompt({ memoryDir: '/m/memory', indexText: null });
    expect(text).toContain('/m/memory');
    for (const t of ['- user:', '- feedback:', '- project:', '- reference:']) expect(text).toContain(t);
    for (const never of [
      'code patterns',
      'architecture',
      'git history',
      'debugging recipes',
      'CLAUDE.md',
      'transient task details',
    ])
      expect(text).toContain(never);
    expect(text).toContain('**Why:**');
    expect(text).toContain('MEMORY.md is empty');
  });

  it('carries MEMORY.md, cut with its warning when past a limit', () => {
    const index = Array.from({ length: 300 }, (_, i) => `- [m${i + 1}](m${i + 1}.md)`).join('\n');
    const text = buildMemoryPrompt({ memoryDir: '/m', indexText: index });
    expect(text).toContain('- [m200](m200.md)');
    expect(text).not.toContain('- [m201](m201.md)');
    expect(text).toMatch(/WARNING: MEMORY\.md is 300 lines/);
  });
});

describe('loadMemoryPromptSection', () => {
  it('reads MEMORY.md from the project memory directory and lists it as loaded', () => {
    const s = setup();
    mkdirSync(s.dir, { recursive: true });
    writeFileSync(path.join(s.dir, 'MEMORY.md'), '- [tabs](tabs.md): use tabs\n');
    const r = loadMemoryPromptSection(s.input);
    expect(r.memoryDir).toBe(s.dir);
    expect(r.section).toContain('- [tabs](tabs.md): use tabs');
    expect(r.loaded).toMatchObject({
      scope: 'auto-memory',
      path: path.join(s.dir, 'MEMORY.md'),
      importedBy: null,
    });
  });

  it('refuses a MEMORY.md that is a link out of the memory directory, and says so in the section', () => {
    const s = setup();
    mkdirSync(s.dir, { recursive: true });
    const secret = path.join(s.root, '.aws', 'credentials');
    mkdirSync(path.dirname(secret), { recursive: true });
    writeFileSync(secret, 'aws_secret_access_key=AKIA-SECRET\n');
    symlinkSync(secret, path.join(s.dir, 'MEMORY.md'));
    const r = loadMemoryPromptSection(s.input);
    expect(r.section).not.toContain('AKIA-SECRET');
    expect(r.section).toMatch(/MEMORY\.md was not loaded: .*symbolic link/);
    expect(r.loaded).toBeNull();
  });

  it('reads a MEMORY.md that is a link staying inside the memory directory', () => {
    const s = setup();
    mkdirSync(path.join(s.dir, 'team'), { recursive: true });
    writeFileSync(path.join(s.dir, 'team', 'index.md'), '- [deploys](deploys.md): Fridays off\n');
    symlinkSync(path.join(s.dir, 'team', 'index.md'), path.join(s.dir, 'MEMORY.md'));
    expect(loadMemoryPromptSection(s.input).section).toContain('Fridays off');
  });

  it('is off when autoMemoryEnabled is false', () => {
    const s = setup();
    mkdirSync(s.carapaceHome, { recursive: true });
    writeFileSync(path.join(s.carapaceHome, 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
    expect(loadMemoryPromptSection(s.input)).toMatchObject({ section: null, memoryDir: null, loaded: null });
  });
});
