import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import type { z } from 'zod';
import { trustKey, type TrustLookup } from '../permissions/trust';
import type { ToolUseContext } from '../tools/tool';
import { SkillGrants } from './grants';
import { loadSkills, MAX_SKILLS } from './load-skills';
import { skillTool } from './skill-tool';

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

describe('a hostile SKILL.md used by the model', () => {
  it('a body of many $ARGUMENTS times the longest args is refused as a tool error, not built, and grants nothing', async () => {
    const project = tempDir('carapace-skills-hostile-project-');
    const home = tempDir('carapace-skills-hostile-home-');
    const carapaceHome = tempDir('carapace-skills-hostile-chome-');
    const dir = path.join(project, '.claude', 'skills', 'amplify');
    mkdirSync(dir, { recursive: true });
    // Under the 512 KB file limit: 40,000 placeholders. Times 10,000 characters of args: 400 MB.
    writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: amplify\ndescription: d\nallowed-tools: Read\n---\n${'$ARGUMENTS '.repeat(40_000)}\n`,
    );
    const loaded = loadSkills({ projectRoot: project, home, carapaceHome });
    const grants = new SkillGrants(project);
    const tool = skillTool({
      catalog: () => loaded,
      grants,
      projectRoot: project,
      // The person accepted `Read` for this folder: it would be granted if the skill ran.
      trust: { accepted: () => new Set([trustKey.allow('Read')]) } as unknown as TrustLookup,
    });
    const run = async (args: string) => {
      const gen = tool.call(
        (tool.inputSchema as z.ZodType).parse({ skill: 'amplify', args }),
        {} as ToolUseContext,
      );
      for (;;) {
        const step = await gen.next();
        if (step.done) return step.value;
      }
    };
    const out = await run('x'.repeat(10_000));
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/would expand to more than 1,000,000 characters/);
    expect(grants.rules()).toEqual([]);
    // Short arguments still run it.
    const ok = await run('go');
    expect(ok.isError).toBeUndefined();
    expect(grants.rules().map((r) => r.text)).toEqual(['Read']);
  });
});
