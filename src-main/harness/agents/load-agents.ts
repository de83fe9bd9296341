import { realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { NOT_ENTERED, walkFolders } from '../../platform/walk';
import { readDefinitionFile, realFolder } from '../definition-files/read-definition-file';
import { isInside } from '../tools/paths';
import { builtinAgents } from './builtin-agents';
import type { AgentDefinition, AgentFileProblem } from './definition';
import { parseAgentFile } from './parse-agent-file';

/** At most this many agent files are read in all (a hostile or huge tree cannot stall a session). */
export const MAX_AGENT_FILES = 500;
/** A larger file is not an agent prompt anybody wrote by hand. */
export const MAX_AGENT_FILE_BYTES = 256 * 1024;
/** Folders below an agents folder: how deep, and how many, are read. */
const WALK = { depth: 8, maxDirs: 500, skip: NOT_ENTERED };

export interface AgentFolders {
  projectRoot: string;
  cwd: string;
  home: string;
  /** Carapace's own settings folder: its `agents/` holds user agents too. */
  carapaceHome: string;
}

/** One agents folder and whose it is (exported for Settings → Agents, which lists every file). */
export interface Folder {
  dir: string;
  source: 'project' | 'user';
}

/**
 * The agents folders, highest precedence first. Project folders walk up from the cwd to the project
 * root (never above it), the nearest first. Then the user's: Carapace's own folder before Claude
 * Code's `~/.claude/agents`, as the one made for this app is the more specific.
 */
export function agentFolders(o: AgentFolders): Folder[] {
  const root = path.resolve(o.projectRoot);
  const cwd = path.resolve(o.projectRoot, o.cwd);
  const dirs: string[] = [];
  if (isInside(root, cwd)) {
    for (let d = cwd; ; d = path.dirname(d)) {
      dirs.push(d);
      if (d === root || path.dirname(d) === d) break;
    }
  } else dirs.push(root);
  return [
    ...dirs.map((d) => ({ dir: path.join(d, '.claude', 'agents'), source: 'project' as const })),
    { dir: path.join(o.carapaceHome, 'agents'), source: 'user' },
    { dir: path.join(o.home, '.claude', 'agents'), source: 'user' },
  ];
}

export interface Budget {
  files: number;
  capped: boolean;
}

/** The agent definitions of one folder, in a stable order (breadth first, by name). */
export function readFolder(
  folder: Folder,
  realProjectRoot: string,
  seen: Set<string>,
  budget: Budget,
  problems: AgentFileProblem[],
): AgentDefinition[] {
  const realDir = realFolder(folder.dir);
  if (realDir === null) return [];
  if (typeof realDir !== 'string') {
    problems.push({ file: folder.dir, message: realDir.problem });
    return [];
  }
  // A project's agents come from the project: a cloned repository must not point its agents folder
  // at the rest of the disk. (The user's folders may be links, into a dotfiles repository say.)
  if (folder.source === 'project' && !isInside(realProjectRoot, realDir)) {
    problems.push({
      file: folder.dir,
      message: `Not read: it leads outside the project (to ${realDir}).`,
    });
    return [];
  }
  // The same folder reached twice (the project is the home folder, or CARAPACE_HOME is ~/.claude)
  // is read once, at its higher precedence.
  if (seen.has(realDir)) return [];
  seen.add(realDir);

  const shown = (p: string) => path.join(folder.dir, path.relative(realDir, p));
  const candidates: { file: string; entry: Dirent }[] = [];
  const subfolders = new Set<string>();
  let visited = 0;
  walkFolders(realDir, WALK, (dir, entries) => {
    visited++;
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory() && !WALK.skip.has(entry.name)) subfolders.add(p);
      if (entry.name.endsWith('.md')) candidates.push({ file: p, entry });
      else if (entry.isSymbolicLink()) {
        let leadsToFolder = false;
        try {
          leadsToFolder = statSync(p).isDirectory();
        } catch {
          // A broken link that is not named .md is nothing to report.
        }
        if (leadsToFolder)
          problems.push({
            file: shown(p),
            message:
              'Not read: it is a link to a folder; links to folders are not followed (they could loop or lead elsewhere).',
          });
      }
    }
  });
  if (subfolders.size + 1 > visited)
    problems.push({
      file: folder.dir,
      message: `Some folders in it were not read: unreadable, more than ${WALK.depth} levels deep, or past the first ${WALK.maxDirs} folders.`,
    });

  const agents: AgentDefinition[] = [];
  const here = new Map<string, string>();
  for (const c of candidates) {
    if (budget.files >= MAX_AGENT_FILES) {
      budget.capped = true;
      problems.push({
        file: shown(c.file),
        message: `Not read: only the first ${MAX_AGENT_FILES} agent files are read; this one and any after it were skipped.`,
      });
      break;
    }
    budget.files++;
    const file = shown(c.file);
    const text = readDefinitionFile(c.file, c.entry, realDir, {
      folder: 'agents folder',
      maxBytes: MAX_AGENT_FILE_BYTES,
    });
    if (typeof text !== 'string') {
      problems.push({ file, message: text.problem });
      continue;
    }
    const parsed = parseAgentFile(text, { file, source: folder.source });
    if (!parsed.ok) {
      problems.push({ file, message: parsed.message });
      continue;
    }
    const earlier = here.get(parsed.agent.name);
    if (earlier !== undefined) {
      problems.push({
        file,
        message: `Not loaded: ${earlier}, in the same folder, already defines the agent "${parsed.agent.name}".`,
      });
      continue;
    }
    here.set(parsed.agent.name, file);
    agents.push(parsed.agent);
  }
  return agents;
}

/**
 * The agent types a session can start: the built-ins and the agent files of the project and the
 * user. On a name collision the project's file wins over the user's, and a file over a built-in of
 * that name, which follows Claude Code (managed > --agents > project > user > built-in). A file's
 * identity is its frontmatter `name`, not its filename. A file that cannot be read as an agent is
 * reported in `problems` and skipped; the others still load.
 */
export function loadAgentDefinitions(o: AgentFolders): {
  agents: AgentDefinition[];
  problems: AgentFileProblem[];
} {
  const problems: AgentFileProblem[] = [];
  let realProjectRoot: string;
  try {
    realProjectRoot = realpathSync.native(o.projectRoot);
  } catch {
    realProjectRoot = path.resolve(o.projectRoot);
  }
  const fromFiles = new Map<string, AgentDefinition>();
  const seen = new Set<string>();
  const budget: Budget = { files: 0, capped: false };
  for (const folder of agentFolders(o)) {
    if (budget.capped) break;
    // Folders come highest precedence first: the first definition of a name stands.
    for (const agent of readFolder(folder, realProjectRoot, seen, budget, problems))
      if (!fromFiles.has(agent.name)) fromFiles.set(agent.name, agent);
  }
  const builtins = builtinAgents();
  const builtinNames = new Set(builtins.map((b) => b.name));
  return {
    agents: [
      ...builtins.map((b) => fromFiles.get(b.name) ?? b),
      ...[...fromFiles.values()].filter((a) => !builtinNames.has(a.name)),
    ],
    problems,
  };
}
