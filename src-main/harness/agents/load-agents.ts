import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import { NOT_ENTERED, walkFolders } from '../../platform/walk';
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

interface Folder {
  dir: string;
  source: 'project' | 'user';
}

/**
 * The agents folders, highest precedence first. Project folders walk up from the cwd to the project
 * root (never above it), the nearest first. Then the user's: Carapace's own folder before Claude
 * Code's `~/.claude/agents`, as the one made for this app is the more specific.
 */
function agentFolders(o: AgentFolders): Folder[] {
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

// Not defined on Windows (no FIFOs to fear there, and links are checked before opening).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A file's bytes, or why they were not read. Never opens a FIFO or a device, never follows a link. */
function readAgentBytes(file: string): Buffer | string {
  const st = lstatSync(file);
  if (!st.isFile()) return 'it is not a regular file';
  if (st.size > MAX_AGENT_FILE_BYTES) return `it is larger than ${MAX_AGENT_FILE_BYTES / 1024} KB`;
  // O_NONBLOCK: were the file swapped for a FIFO after the check, opening it still returns at once,
  // and the fstat below refuses it. O_NOFOLLOW: nor is a link swapped in followed.
  const fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return 'it is not a regular file';
    const buf = Buffer.alloc(MAX_AGENT_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_AGENT_FILE_BYTES) return `it is larger than ${MAX_AGENT_FILE_BYTES / 1024} KB`;
    }
    return buf.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** One candidate file's text, or why it is not loaded. `realDir` is where the agents folder really is. */
function readCandidate(file: string, entry: Dirent, realDir: string): string | { problem: string } {
  if (entry.isDirectory()) return { problem: 'Not loaded: it is a folder, not a file.' };
  let target = file;
  if (entry.isSymbolicLink()) {
    try {
      target = realpathSync.native(file);
    } catch {
      return { problem: 'Not loaded: it is a link that leads nowhere.' };
    }
    if (!isInside(realDir, target))
      return { problem: `Not loaded: it is a link leading outside the agents folder (to ${target}).` };
  } else if (!entry.isFile())
    return { problem: 'Not loaded: it is not a regular file (a FIFO, socket or device is never read).' };
  let bytes: Buffer | string;
  try {
    bytes = readAgentBytes(target);
  } catch (error) {
    return { problem: `Not loaded: it could not be read (${errorText(error)}).` };
  }
  if (typeof bytes === 'string')
    return { problem: `Not loaded: ${target === file ? bytes : `it leads to ${target}, and ${bytes}`}.` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'Not loaded: it is not UTF-8 text.' };
  }
  if (text.includes('\0')) return { problem: 'Not loaded: it contains NUL bytes, so it is not a text file.' };
  return text;
}

interface Budget {
  files: number;
  capped: boolean;
}

/** The agent definitions of one folder, in a stable order (breadth first, by name). */
function readFolder(
  folder: Folder,
  realProjectRoot: string,
  seen: Set<string>,
  budget: Budget,
  problems: AgentFileProblem[],
): AgentDefinition[] {
  let realDir: string;
  try {
    realDir = realpathSync.native(folder.dir);
    if (!statSync(realDir).isDirectory()) {
      problems.push({ file: folder.dir, message: 'Not read: it is not a folder.' });
      return [];
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Most of these folders simply do not exist; `.claude` being a file is no agents folder either.
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      problems.push({ file: folder.dir, message: `Not read: ${errorText(error)}.` });
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
    const text = readCandidate(c.file, c.entry, realDir);
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
