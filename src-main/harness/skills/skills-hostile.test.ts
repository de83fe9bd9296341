import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadSkills, MAX_SKILLS } from './load-skills';

const skill = (dir: string, name: string) => {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(
    path.join(dir, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: the ${name} skill\n---\nDo it.\n`,
  );
};

describe('hostile skill folders', () => {
  it("a repository with more skill folders than are read does not crowd out the person's plugin skills", () => {
    const project = tempDir('carapace-skills-hostile-project-');
    const home = tempDir('carapace-skills-hostile-home-');
    const carapaceHome = tempDir('carapace-skills-hostile-chome-');
    const plugin = tempDir('carapace-skills-hostile-plugin-');
    const projectSkills = path.join(project, '.claude', 'skills');
    for (let i = 0; i <= MAX_SKILLS; i++) skill(projectSkills, `flood-${String(i).padStart(3, '0')}`);
    skill(path.join(home, '.claude', 'skills'), 'mine');
    skill(path.join(plugin, 'skills'), 'lint');
    const r = loadSkills({
      projectRoot: project,
      home,
      carapaceHome,
      plugins: [{ dir: path.join(plugin, 'skills'), source: 'plugin', within: plugin, namePrefix: 'tools:' }],
    });
    const names = r.skills.map((s) => s.name);
    expect(names).toContain('mine');
    expect(names).toContain('tools:lint');
    expect(names.filter((n) => n.startsWith('flood-'))).toHaveLength(MAX_SKILLS);
    expect(r.problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(new RegExp(`only the first ${MAX_SKILLS} skills are read`)),
    );
  });
});
