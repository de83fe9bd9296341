import { realpathSync } from 'node:fs';
import path from 'node:path';
import type {
  AgentFileEntry,
  AgentFileProblemView,
  AgentFileRef,
  AgentFilesView,
  AgentFolderId,
} from '@shared/ipc/contract/agent-files';
import { builtinAgents } from '../../harness/agents/builtin-agents';
import type { AgentDefinition, AgentFileProblem } from '../../harness/agents/definition';
import {
  agentFolders,
  MAX_AGENT_FILE_BYTES,
  readFolder,
  type Budget,
} from '../../harness/agents/load-agents';
import { readCappedText } from '../../harness/definition-files/read-definition-file';
import { splitFrontmatter } from '../../harness/frontmatter/split-frontmatter';
import type { PluginComponents } from '../../harness/plugins/load-plugins';
import { shownFolder, type AgentFileRoots } from './agent-file-paths';

/** Characters of a description the list carries (the file itself is opened whole by Edit). */
const MAX_SHOWN = 2000;

const EDITABLE: readonly AgentFolderId[] = ['project', 'user', 'claude-user'];

/** The editable file a path names (a `.md` file inside one of the three folders), or null. */
export function refOf(file: string, r: AgentFileRoots): AgentFileRef | null {
  if (!file.endsWith('.md')) return null;
  for (const folder of EDITABLE) {
    const rel = path.relative(shownFolder(folder, r), file);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel))
      return { folder, path: rel.split(path.sep).join('/') };
  }
  return null;
}

/**
 * The frontmatter's `color` (the loader ignores it; Claude Code colours the agent's label with it).
 * Display only, so one line is matched rather than the YAML parsed a second time: with 500 files
 * that parse was a third of the page's load.
 */
function colorOf(file: string): string | null {
  const text = readCappedText(file, MAX_AGENT_FILE_BYTES);
  if (typeof text !== 'string') return null;
  const parts = splitFrontmatter(text);
  if (typeof parts === 'string' || parts.yaml === null) return null;
  const m = /^color:[ \t]*(["']?)([A-Za-z]{1,30}|#[0-9A-Fa-f]{3,8})\1[ \t]*$/m.exec(parts.yaml);
  return m?.[2] ?? null;
}

function entry(a: AgentDefinition, source: AgentFileEntry['source'], r: AgentFileRoots): AgentFileEntry {
  const editable = source === 'project' || source === 'user';
  return {
    name: a.name,
    // 500 files of 256 KB descriptions must not make one 100 MB answer: the list shows a start.
    description: a.description.length > MAX_SHOWN ? `${a.description.slice(0, MAX_SHOWN)}…` : a.description,
    source,
    file: a.file,
    ref: editable && a.file !== null ? refOf(a.file, r) : null,
    tools: a.tools,
    disallowedTools: a.disallowedTools,
    model: a.model,
    color: editable && a.file !== null ? colorOf(a.file) : null,
    active: true,
    overriddenBy: null,
  };
}

/**
 * The session catalogue's precedence (loadAgentDefinitions, then withPluginAgents): among files the
 * first folder read wins (project, then user); a file replaces a built-in of its name; a plugin's
 * agent is added only under a name nobody else has. The test holds this against the real catalogue.
 */
function markWinners(builtins: AgentFileEntry[], files: AgentFileEntry[], plugin: AgentFileEntry[]): void {
  const winner = new Map<string, AgentFileEntry>();
  for (const e of files) if (!winner.has(e.name)) winner.set(e.name, e);
  for (const e of builtins) if (!winner.has(e.name)) winner.set(e.name, e);
  for (const e of plugin) if (!winner.has(e.name)) winner.set(e.name, e);
  for (const e of [...builtins, ...files, ...plugin]) {
    const w = winner.get(e.name);
    if (w === e) continue;
    e.active = false;
    e.overriddenBy = w === undefined ? null : (w.file ?? 'built-in');
  }
}

/**
 * Every agent definition a new session of the project would see, and the ones it would not: files
 * whose name a higher-precedence definition takes (marked with what wins) and files that are not
 * loaded (with the loader's own message). The folders are read by the session loader's own code.
 */
export function listAgentFiles(r: AgentFileRoots, plugins: () => PluginComponents): AgentFilesView {
  const o = { projectRoot: r.projectRoot, cwd: r.projectRoot, home: r.home, carapaceHome: r.carapaceHome };
  let realProjectRoot: string;
  try {
    realProjectRoot = realpathSync.native(r.projectRoot);
  } catch {
    realProjectRoot = path.resolve(r.projectRoot);
  }
  const problems: AgentFileProblem[] = [];
  const seen = new Set<string>();
  const budget: Budget = { files: 0, capped: false };
  const files: AgentFileEntry[] = [];
  for (const folder of agentFolders(o)) {
    if (budget.capped) break;
    for (const a of readFolder(folder, realProjectRoot, seen, budget, problems))
      files.push(entry(a, folder.source, r));
  }
  const builtins = builtinAgents().map((a) => entry(a, 'built-in', r));
  const plugin = plugins().agents.map((a) => entry(a, 'plugin', r));
  markWinners(builtins, files, plugin);
  const all = [...builtins, ...files, ...plugin];
  const problemViews: AgentFileProblemView[] = problems.map((p) => ({ ...p, ref: refOf(p.file, r) }));
  return {
    agents: all,
    problems: problemViews,
    folders: { project: shownFolder('project', r), user: shownFolder('user', r) },
  };
}
