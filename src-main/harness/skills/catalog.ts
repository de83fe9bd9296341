import type { SkillCatalog, SkillProblem } from './definition';
import { loadSkills, type SkillsFolder } from './load-skills';

/** Skill folders are read again at most this often (the Skill tool's description asks at every request). */
const FRESH_MS = 1000;

/**
 * The skills a project's sessions may use, read again when older than a second so a skill added
 * mid-session is offered. Problems are reported once each.
 */
export function createSkillCatalog(o: {
  projectRoot: string;
  home: string;
  carapaceHome: string;
  onProblems?: (problems: SkillProblem[]) => void;
  /** The enabled plugins' skills folders, read again with the rest (plugins/load-plugins.ts). */
  plugins?: () => { skillFolders: SkillsFolder[]; problems: SkillProblem[] };
}): SkillCatalog {
  let cached: { at: number; value: ReturnType<SkillCatalog> } | null = null;
  const reported = new Set<string>();
  return () => {
    if (cached && Date.now() - cached.at < FRESH_MS) return cached.value;
    const plugins = o.plugins?.();
    const loaded = loadSkills({
      projectRoot: o.projectRoot,
      home: o.home,
      carapaceHome: o.carapaceHome,
      plugins: plugins?.skillFolders,
    });
    const value = { skills: loaded.skills, problems: [...(plugins?.problems ?? []), ...loaded.problems] };
    cached = { at: Date.now(), value };
    const fresh = value.problems.filter((p) => !reported.has(`${p.file}\n${p.message}`));
    for (const p of fresh) reported.add(`${p.file}\n${p.message}`);
    if (fresh.length > 0) o.onProblems?.(fresh);
    return value;
  };
}
