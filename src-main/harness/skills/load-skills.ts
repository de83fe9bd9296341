import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { realFolder } from '../definition-files/read-definition-file';
import { isInside } from '../tools/paths';
import { builtinSkills } from './builtin-skills';
import type { SkillDefinition, SkillProblem } from './definition';
import { parseSkillFile } from './parse-skill-file';
import { readSkillText } from './read-skill-file';

/** At most this many skill folders are read from the project, and as many from the person's own and plugins' (a hostile tree cannot stall a session). */
export const MAX_SKILLS = 200;

export interface SkillFolders {
  projectRoot: string;
  home: string;
  /** Carapace's own settings folder: its `skills/` holds user skills too. */
  carapaceHome: string;
}

export interface SkillsFolder {
  dir: string;
  source: 'project' | 'user' | 'plugin';
  /**
   * The real folder everything must stay inside (the project's, a plugin's): a link out of it is
   * refused before anything there is read. Null for the user's own folders, which may be links.
   */
  within: string | null;
  /** Put before each skill's name (`plugin-name:`), so a plugin's skills cannot shadow others. */
  namePrefix?: string;
  /** A plugin's: fills `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}` in each body (plugins/plugin-vars.ts). */
  fill?: (body: string) => string;
}

type Folder = SkillsFolder;

/**
 * The skills folders, highest precedence first. Claude Code lets a personal skill win over a
 * project's of the same name (enterprise > personal > project), so a cloned repository cannot
 * replace a skill the person relies on. Carapace's own folder comes before `~/.claude/skills`.
 */
function skillFolders(o: SkillFolders, realProjectRoot: string): Folder[] {
  return [
    { dir: path.join(o.carapaceHome, 'skills'), source: 'user', within: null },
    { dir: path.join(o.home, '.claude', 'skills'), source: 'user', within: null },
    { dir: path.join(o.projectRoot, '.claude', 'skills'), source: 'project', within: realProjectRoot },
  ];
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Control characters in a hostile folder name would garble the notice that names it. */
function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the characters to keep out of a notice
  return /[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : name;
}

/**
 * The real folder of one entry of a skills folder, or why it is not a skill. A project's skill
 * must really be inside the project: a link out of it (to ~/.ssh, say) is refused before anything
 * there is read. The user's own skills may be links (into a dotfiles repository).
 */
function skillDir(entry: Dirent, realDir: string, folder: Folder): string | { problem: string } | null {
  const p = path.join(realDir, entry.name);
  if (entry.isSymbolicLink()) {
    let target: string;
    try {
      target = realpathSync.native(p);
    } catch {
      return { problem: 'Not loaded: it is a link that leads nowhere.' };
    }
    if (folder.within !== null && !isInside(folder.within, target))
      return { problem: `Not loaded: it is a link leading outside the ${folder.source} (to ${target}).` };
    try {
      if (!statSync(target).isDirectory()) return null;
    } catch (error) {
      return { problem: `Not loaded: ${errorText(error)}.` };
    }
    return target;
  }
  // Loose files beside the skill folders (a README) are no skills and not worth a notice.
  if (!entry.isDirectory()) return null;
  return p;
}

/** One skill folder's definition, or why it is not loaded. */
function readSkill(
  realDir: string,
  shownDir: string,
  folderName: string,
  source: SkillDefinition['source'],
): SkillDefinition | { problem: string } {
  const file = path.join(realDir, 'SKILL.md');
  try {
    lstatSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: 'Not loaded: the folder has no SKILL.md.' };
    return { problem: `Not loaded: ${errorText(error)}.` };
  }
  let target = file;
  if (lstatSync(file).isSymbolicLink()) {
    try {
      target = realpathSync.native(file);
    } catch {
      return { problem: 'Not loaded: its SKILL.md is a link that leads nowhere.' };
    }
    if (!isInside(realDir, target))
      return {
        problem: `Not loaded: its SKILL.md is a link leading outside the skill's folder (to ${target}).`,
      };
  }
  const text = readSkillText(target);
  if (typeof text !== 'string') return { problem: `Not loaded: its SKILL.md: ${text.problem}.` };
  const parsed = parseSkillFile(text, {
    folderName,
    baseDir: shownDir,
    file: path.join(shownDir, 'SKILL.md'),
    source,
  });
  return parsed.ok ? parsed.skill : { problem: parsed.message };
}

interface Budget {
  read: number;
  capped: boolean;
}

function readFolder(
  folder: Folder,
  seen: Set<string>,
  budget: Budget,
  problems: SkillProblem[],
): SkillDefinition[] {
  const realDir = realFolder(folder.dir);
  if (realDir === null) return [];
  if (typeof realDir !== 'string') {
    problems.push({ file: folder.dir, message: realDir.problem });
    return [];
  }
  // A cloned repository (or a plugin) must not point its skills folder at the rest of the disk.
  if (folder.within !== null && !isInside(folder.within, realDir)) {
    problems.push({
      file: folder.dir,
      message: `Not read: it leads outside the ${folder.source} (to ${realDir}).`,
    });
    return [];
  }
  // The same folder reached twice (CARAPACE_HOME is ~/.claude, the project is the home folder) is
  // read once, at its higher precedence.
  if (seen.has(realDir)) return [];
  seen.add(realDir);
  let entries: Dirent[];
  try {
    entries = readdirSync(realDir, { withFileTypes: true });
  } catch (error) {
    problems.push({ file: folder.dir, message: `Not read: ${errorText(error)}.` });
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const skills: SkillDefinition[] = [];
  const here = new Map<string, string>();
  for (const entry of entries) {
    const shown = path.join(folder.dir, printable(entry.name));
    const dir = skillDir(entry, realDir, folder);
    if (dir === null) continue;
    // The folder is named to the model as the skill's base directory: a line break in its name
    // could forge lines of the tool result, so such a folder is no skill.
    if (printable(entry.name) !== entry.name) {
      problems.push({
        file: shown,
        message: 'Not loaded: its folder name contains control characters.',
      });
      continue;
    }
    if (typeof dir !== 'string') {
      problems.push({ file: shown, message: dir.problem });
      continue;
    }
    if (budget.read >= MAX_SKILLS) {
      budget.capped = true;
      problems.push({
        file: shown,
        message: `Not read: only the first ${MAX_SKILLS} skills are read; this one and any after it were skipped.`,
      });
      break;
    }
    budget.read++;
    const read = readSkill(dir, path.join(folder.dir, entry.name), entry.name, folder.source);
    if ('problem' in read) {
      problems.push({ file: path.join(shown, 'SKILL.md'), message: read.problem });
      continue;
    }
    const named = folder.namePrefix ? { ...read, name: `${folder.namePrefix}${read.name}` } : read;
    const skill = folder.fill ? { ...named, body: folder.fill(named.body) } : named;
    const earlier = here.get(skill.name);
    if (earlier !== undefined) {
      problems.push({
        file: path.join(shown, 'SKILL.md'),
        message: `Not loaded: ${earlier}, in the same folder, already defines the skill "${skill.name}".`,
      });
      continue;
    }
    here.set(skill.name, path.join(shown, 'SKILL.md'));
    skills.push(skill);
  }
  return skills;
}

/**
 * The skills a session can use: the user's (Carapace's folder, then `~/.claude/skills`), the
 * project's `.claude/skills/<name>/SKILL.md`, then the built-ins; the first definition of a name
 * stands. A folder that cannot be read as a skill is reported in `problems` and skipped.
 */
export function loadSkills(
  o: SkillFolders & {
    /** Enabled plugins' skills folders (plugins/), read after the project's, before the built-ins. */
    plugins?: readonly SkillsFolder[] | undefined;
  },
): { skills: SkillDefinition[]; problems: SkillProblem[] } {
  const problems: SkillProblem[] = [];
  let realProjectRoot: string;
  try {
    realProjectRoot = realpathSync.native(o.projectRoot);
  } catch {
    realProjectRoot = path.resolve(o.projectRoot);
  }
  const byName = new Map<string, SkillDefinition>();
  const seen = new Set<string>();
  // The repository's folder has a budget of its own: a clone with hundreds of skill folders must
  // not use up the reading of the plugins the person installed (read after it).
  const project: Budget = { read: 0, capped: false };
  const own: Budget = { read: 0, capped: false };
  for (const folder of [...skillFolders(o, realProjectRoot), ...(o.plugins ?? [])]) {
    const budget = folder.source === 'project' ? project : own;
    if (budget.capped) continue;
    for (const skill of readFolder(folder, seen, budget, problems))
      if (!byName.has(skill.name)) byName.set(skill.name, skill);
  }
  const builtin = builtinSkills();
  problems.push(...builtin.problems);
  for (const skill of builtin.skills) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  return { skills: [...byName.values()], problems };
}
