import reviewSkill from '../../../resources/skills/review/SKILL.md?raw';
import type { SkillDefinition, SkillProblem } from './definition';
import { parseSkillFile } from './parse-skill-file';

/**
 * The skills that ship with Carapace (resources/skills/, bundled as text): every project has them,
 * and a user's or project's skill of the same name takes their place. A shipped file that does not
 * parse is a bug in the app, reported like any broken skill rather than crashing a session.
 */
export function builtinSkills(): { skills: SkillDefinition[]; problems: SkillProblem[] } {
  const skills: SkillDefinition[] = [];
  const problems: SkillProblem[] = [];
  for (const [folderName, text] of [['review', reviewSkill]] as const) {
    const parsed = parseSkillFile(text, { folderName, baseDir: null, file: null, source: 'built-in' });
    if (parsed.ok) skills.push(parsed.skill);
    else problems.push({ file: `(built-in) ${folderName}/SKILL.md`, message: parsed.message });
  }
  return { skills, problems };
}
