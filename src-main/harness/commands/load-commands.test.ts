import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadCustomCommands } from './load-commands';

function layout() {
  const root = tempDir('carapace-commands-');
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const carapaceHome = path.join(root, 'carapace');
  const projectDir = path.join(project, '.claude', 'commands');
  const userDir = path.join(home, '.claude', 'commands');
  for (const d of [projectDir, userDir, carapaceHome]) mkdirSync(d, { recursive: true });
  const write = (dir: string, rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  const load = () => loadCustomCommands({ projectRoot: project, home, carapaceHome });
  return { root, project, projectDir, userDir, write, load };
}

describe('loadCustomCommands', () => {
  it('reads frontmatter, names subfolders namespace:name, and the project wins over the user', () => {
    const t = layout();
    t.write(
      t.projectDir,
      'fix-issue.md',
      '---\ndescription: Fix a GitHub issue\nargument-hint: [number] [priority]\nallowed-tools: Bash(gh issue view:*), Read\nmodel: haiku\n---\nFix issue $ARGUMENTS.\n',
    );
    t.write(t.projectDir, 'frontend/component.md', '# Make a component\n\nCreate $1.');
    t.write(t.userDir, 'fix-issue.md', 'the user version');
    t.write(t.userDir, 'mine.md', 'Only mine.');
    const { commands, problems } = t.load();
    expect(problems).toEqual([]);
    expect(commands.map((c) => [c.name, c.scope])).toEqual([
      ['fix-issue', 'project'],
      ['frontend:component', 'project'],
      ['mine', 'user'],
    ]);
    const fix = commands[0];
    expect(fix).toMatchObject({
      description: 'Fix a GitHub issue',
      argumentHint: '[number] [priority]',
      allowedTools: ['Bash(gh issue view:*)', 'Read'],
      model: 'haiku',
      body: 'Fix issue $ARGUMENTS.',
    });
    // No description: the first line of the body stands in.
    expect(commands[1]?.description).toBe('Make a component');
    expect(commands[1]?.namespace).toBe('frontend');
  });

  it('a link out of the project, a huge file, a FIFO, bad YAML and untypeable names are reported and skipped', () => {
    const t = layout();
    const secret = path.join(t.root, 'secret.txt');
    writeFileSync(secret, 'SECRET');
    symlinkSync(secret, path.join(t.projectDir, 'leak.md'));
    t.write(t.projectDir, 'inside.md', 'inside');
    symlinkSync(path.join(t.projectDir, 'inside.md'), path.join(t.projectDir, 'alias.md'));
    t.write(t.projectDir, 'huge.md', 'x'.repeat(300 * 1024));
    execFileSync('mkfifo', [path.join(t.projectDir, 'pipe.md')]);
    t.write(t.projectDir, 'broken.md', '---\ndescription: [unclosed\n---\nbody');
    t.write(t.projectDir, 'bad model.md', 'spaces in the name');
    t.write(t.projectDir, 'wrong.md', '---\nmodel: "rm -rf /"\nallowed-tools: {a: 1}\n---\nx');
    const { commands, problems } = t.load();
    expect(commands.map((c) => c.name)).toEqual(['alias', 'inside']);
    expect(commands.some((c) => c.body.includes('SECRET'))).toBe(false);
    const why = (name: string) => problems.find((p) => p.file.endsWith(name))?.message ?? '';
    expect(why('leak.md')).toMatch(/link leading outside the commands folder/);
    expect(why('huge.md')).toMatch(/larger than 256 KB/);
    expect(why('pipe.md')).toMatch(/not a regular file/);
    expect(why('broken.md')).toMatch(/not valid YAML/);
    expect(why('bad model.md')).toMatch(/cannot be part of a command name/);
    expect(why('wrong.md')).toMatch(/allowed-tools must be.*model "rm -rf \/" is not a model name/);
  });

  it("a project's commands folder that is a link out of the project is not read", () => {
    const t = layout();
    const elsewhere = path.join(t.root, 'elsewhere');
    t.write(elsewhere, 'steal.md', 'outside');
    rmSync(t.projectDir, { recursive: true });
    symlinkSync(elsewhere, t.projectDir);
    const { commands, problems } = t.load();
    expect(commands).toEqual([]);
    expect(problems[0]?.message).toMatch(/leads outside the project/);
  });
});

describe('loadCustomCommands limits', () => {
  it('a flood of allowed-tools, an overlong rule or an overlong name is refused; 500 files at most', () => {
    const t = layout();
    const many = Array.from({ length: 101 }, (_, i) => `Bash(echo ${i})`).join(', ');
    t.write(t.projectDir, 'flood.md', `---\nallowed-tools: ${many}\n---\nx`);
    t.write(t.projectDir, 'long-rule.md', `---\nallowed-tools: Bash(${'x'.repeat(600)})\n---\nx`);
    const deep = Array.from({ length: 5 }, () => 'n'.repeat(50)).join('/');
    t.write(t.projectDir, `${deep}/cmd.md`, 'deep');
    for (let i = 0; i < 510; i++) t.write(t.userDir, `c${String(i).padStart(3, '0')}.md`, `command ${i}`);
    const { commands, problems } = t.load();
    const why = (name: string) => problems.find((p) => p.file.endsWith(name))?.message ?? '';
    expect(why('flood.md')).toMatch(/more than 100 entries/);
    expect(why('long-rule.md')).toMatch(/longer than 500 characters/);
    expect(why('cmd.md')).toMatch(/longer than 200 characters/);
    // 500 files read from the person's folders (the project's two broken ones count in its own budget).
    expect(commands.filter((c) => c.scope === 'user')).toHaveLength(500);
    expect(problems.filter((p) => p.message.includes('only the first 500'))).toHaveLength(1);
  });
});
