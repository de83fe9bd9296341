import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadSkills } from './load-skills';
import { MAX_SKILL_FILE_BYTES } from './read-skill-file';

const skillText = (name: string, extra = '', body = `Do the ${name} thing.`) =>
  `---\nname: ${name}\ndescription: the ${name} skill\n${extra}---\n${body}\n`;

function put(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function setup() {
  const project = tempDir('carapace-skills-project-');
  const home = tempDir('carapace-skills-home-');
  const carapaceHome = tempDir('carapace-skills-chome-');
  const projectSkills = path.join(project, '.claude', 'skills');
  const userSkills = path.join(home, '.claude', 'skills');
  const load = () => loadSkills({ projectRoot: project, home, carapaceHome });
  return { project, home, carapaceHome, projectSkills, userSkills, load };
}

const names = (r: ReturnType<typeof loadSkills>) => r.skills.map((s) => s.name);

describe('loadSkills', () => {
  it('offers the shipped review skill when there are no skill folders', () => {
    const r = setup().load();
    expect(r.problems).toEqual([]);
    expect(names(r)).toEqual(['review']);
    const review = r.skills[0];
    expect(review).toMatchObject({ source: 'built-in', baseDir: null, modelInvocable: true });
    expect(review?.allowedTools).toContain('Bash(git diff:*)');
    expect(review?.body).toContain('three Agent tool calls');
  });

  it('reads project and user skills; the user’s wins a name, and either wins over a built-in', () => {
    const s = setup();
    put(path.join(s.projectSkills, 'deploy', 'SKILL.md'), skillText('deploy'));
    put(path.join(s.projectSkills, 'shared', 'SKILL.md'), skillText('shared', '', 'project body'));
    put(path.join(s.userSkills, 'shared', 'SKILL.md'), skillText('shared', '', 'user body'));
    put(path.join(s.carapaceHome, 'skills', 'review', 'SKILL.md'), skillText('review', '', 'my review'));
    put(path.join(s.projectSkills, 'README.md'), 'loose files are no skills');
    const r = s.load();
    expect(r.problems).toEqual([]);
    expect(names(r).sort()).toEqual(['deploy', 'review', 'shared']);
    expect(r.skills.find((k) => k.name === 'shared')).toMatchObject({ source: 'user', body: 'user body' });
    expect(r.skills.find((k) => k.name === 'review')).toMatchObject({ source: 'user', body: 'my review' });
    expect(r.skills.find((k) => k.name === 'deploy')).toMatchObject({
      source: 'project',
      baseDir: path.join(s.projectSkills, 'deploy'),
      file: path.join(s.projectSkills, 'deploy', 'SKILL.md'),
    });
  });

  it('takes the name from the folder and the description from the first paragraph when the frontmatter has none', () => {
    const s = setup();
    put(
      path.join(s.projectSkills, 'lint-fix', 'SKILL.md'),
      '# Fix lint\nRun the linter and fix.\n\nDetails.\n',
    );
    const skill = s.load().skills.find((k) => k.name === 'lint-fix');
    expect(skill).toMatchObject({ description: 'Fix lint Run the linter and fix.', allowedTools: [] });
  });

  it('refuses a project skill folder that is a link out of the project, and reads nothing there', () => {
    const s = setup();
    const outside = tempDir('carapace-skills-outside-');
    put(path.join(outside, 'SKILL.md'), skillText('stolen'));
    mkdirSync(s.projectSkills, { recursive: true });
    symlinkSync(outside, path.join(s.projectSkills, 'stolen'));
    const r = s.load();
    expect(names(r)).not.toContain('stolen');
    expect(r.problems).toEqual([
      {
        file: path.join(s.projectSkills, 'stolen'),
        message: expect.stringMatching(/^Not loaded: it is a link leading outside the project \(to .*\)\.$/),
      },
    ]);
  });

  it('refuses a project skills folder that is itself a link out of the project', () => {
    const s = setup();
    const outside = tempDir('carapace-skills-outside-');
    put(path.join(outside, 'x', 'SKILL.md'), skillText('x'));
    mkdirSync(path.join(s.project, '.claude'), { recursive: true });
    symlinkSync(outside, s.projectSkills);
    const r = s.load();
    expect(names(r)).toEqual(['review']);
    expect(r.problems[0]?.message).toMatch(/^Not read: it leads outside the project/);
  });

  it('refuses a SKILL.md that is a link out of its folder', () => {
    const s = setup();
    const outside = tempDir('carapace-skills-outside-');
    const secret = put(path.join(outside, 'secret.md'), skillText('secret'));
    mkdirSync(path.join(s.projectSkills, 'leak'), { recursive: true });
    symlinkSync(secret, path.join(s.projectSkills, 'leak', 'SKILL.md'));
    const r = s.load();
    expect(names(r)).not.toContain('secret');
    expect(r.problems[0]).toMatchObject({
      file: path.join(s.projectSkills, 'leak', 'SKILL.md'),
      message: expect.stringContaining("a link leading outside the skill's folder"),
    });
  });

  it('lets the user’s own skill folders be links (a dotfiles repository)', () => {
    const s = setup();
    const dotfiles = tempDir('carapace-skills-dotfiles-');
    put(path.join(dotfiles, 'mine', 'SKILL.md'), skillText('mine'));
    mkdirSync(s.userSkills, { recursive: true });
    symlinkSync(path.join(dotfiles, 'mine'), path.join(s.userSkills, 'mine'));
    const r = s.load();
    expect(r.problems).toEqual([]);
    expect(r.skills.find((k) => k.name === 'mine')?.baseDir).toBe(path.join(s.userSkills, 'mine'));
  });

  it('refuses a 50 MB SKILL.md by its size, without reading it', () => {
    const s = setup();
    const file = put(path.join(s.projectSkills, 'huge', 'SKILL.md'), skillText('huge'));
    truncateSync(file, 50 * 1024 * 1024);
    const r = s.load();
    expect(names(r)).not.toContain('huge');
    expect(r.problems).toEqual([
      { file, message: `Not loaded: its SKILL.md: it is larger than ${MAX_SKILL_FILE_BYTES / 1024} KB.` },
    ]);
  });

  it('never opens a FIFO named SKILL.md (it would block the loader)', () => {
    const s = setup();
    mkdirSync(path.join(s.projectSkills, 'pipe'), { recursive: true });
    const fifo = path.join(s.projectSkills, 'pipe', 'SKILL.md');
    execFileSync('mkfifo', [fifo]);
    const r = s.load();
    expect(r.problems).toEqual([
      { file: fifo, message: expect.stringContaining('it is not a regular file') },
    ]);
  });

  it('reports frontmatter that is not YAML, a name with ../ and a folder with no SKILL.md, and loads the rest', () => {
    const s = setup();
    put(path.join(s.projectSkills, 'broken', 'SKILL.md'), '---\nname: [unclosed\n  : : :\n---\nbody\n');
    put(path.join(s.projectSkills, 'escape', 'SKILL.md'), skillText('../../etc/passwd'));
    mkdirSync(path.join(s.projectSkills, 'empty'), { recursive: true });
    put(path.join(s.projectSkills, 'good', 'SKILL.md'), skillText('good'));
    const r = s.load();
    expect(names(r).sort()).toEqual(['good', 'review']);
    const byFile = Object.fromEntries(
      r.problems.map((p) => [path.relative(s.projectSkills, p.file), p.message]),
    );
    expect(byFile['broken/SKILL.md']).toMatch(/^Not loaded: its frontmatter is not valid YAML \(/);
    expect(byFile['escape/SKILL.md']).toContain('the name "../../etc/passwd" must be lowercase letters');
    expect(byFile['empty/SKILL.md']).toBe('Not loaded: the folder has no SKILL.md.');
  });

  it('names a folder with control characters safely and refuses it, even with a valid name inside', () => {
    const s = setup();
    put(path.join(s.projectSkills, 'bad\nname', 'SKILL.md'), skillText('fine-name'));
    const r = s.load();
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toEqual({
      file: path.join(s.projectSkills, '"bad\\nname"'),
      message: 'Not loaded: its folder name contains control characters.',
    });
  });

  it('reports a second skill of the same name in one folder', () => {
    const s = setup();
    put(path.join(s.projectSkills, 'a', 'SKILL.md'), skillText('same'));
    put(path.join(s.projectSkills, 'b', 'SKILL.md'), skillText('same'));
    const r = s.load();
    expect(r.skills.filter((k) => k.name === 'same')).toHaveLength(1);
    expect(r.problems[0]?.message).toContain('already defines the skill "same"');
  });
});
