import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { AgentDefinition } from '../agents/definition';
import { parseAgentFile } from '../agents/parse-agent-file';
import { own, parseYamlFrontmatter } from '../frontmatter/parse-yaml-frontmatter';
import { splitFrontmatter } from '../frontmatter/split-frontmatter';
import type { SkillsFolder } from '../skills/load-skills';
import { readSkillText } from '../skills/read-skill-file';
import { isInside } from '../tools/paths';
import type { ConfiguredHook } from '../hooks/sources';
import { pluginStates, type PluginPlace } from './enabled-state';
import type { PluginManifest } from './manifest';
import { pluginHooks } from './plugin-hooks';
import { pluginVarsFiller } from './plugin-vars';
import { ensurePluginDataDir, listPlugins, PluginError, readManifest, registryFile } from './registry';

/** At most this many agent files are read from one plugin. */
const MAX_PLUGIN_AGENTS = 100;

export interface PluginProblem {
  /** The plugin, or the file of it, that the problem is about. */
  file: string;
  message: string;
}

/** What the enabled plugins bring: skills folders for the skills loader, agent types and hooks. */
export interface PluginComponents {
  skillFolders: SkillsFolder[];
  agents: AgentDefinition[];
  /** Hooks of `hooks/hooks.json` (or the manifest's), with `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` put in. */
  hooks: ConfiguredHook[];
  problems: PluginProblem[];
}

/** A folder of the plugin (`./skills`, `./agents`, a manifest path), or null when it leads outside. */
export function inPlugin(root: string, rel: string): string | null {
  const dir = path.join(root, rel);
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch {
    return dir;
  }
  return isInside(root, real) ? dir : null;
}

function componentDirs(root: string, defaults: string, extra: readonly string[]): string[] {
  const out: string[] = [];
  for (const rel of [`./${defaults}`, ...extra]) {
    const normal = path.posix.normalize(rel);
    if (!out.includes(normal)) out.push(normal);
  }
  return out.map((rel) => path.join(root, rel));
}

/** Frontmatter keys Claude Code ignores in a plugin's agent (its security rule: see pluginAgents). */
const PLUGIN_AGENT_IGNORED = ['hooks', 'mcpServers', 'permissionMode'] as const;

/** Which of those keys an agent file sets (its frontmatter already parsed once by parseAgentFile). */
function ignoredKeys(text: string): string[] {
  const parts = splitFrontmatter(text);
  if (typeof parts === 'string' || parts.yaml === null) return [];
  const read = parseYamlFrontmatter(parts.yaml, { example: 'name, description', allowEmpty: true });
  return read.ok ? PLUGIN_AGENT_IGNORED.filter((k) => own(read.keys, k) !== undefined) : [];
}

/**
 * A plugin's agent files (`agents/*.md` and the manifest's agent folders), named `plugin:agent` as
 * Claude Code shows them. As Claude Code does, a plugin's agent takes no `permissionMode`, `hooks`
 * or `mcpServers`: installing a plugin must not hand an agent a wider mode, nor commands or servers
 * that run outside the plugin's enabled hooks and MCP servers. Setting them is not a fault: the agent
 * loads without them, with a note saying so.
 */
function pluginAgents(
  root: string,
  manifest: PluginManifest,
  problems: PluginProblem[],
  /** Fills `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}` in the agent's prompt (plugin-vars.ts). */
  fill: (text: string) => string,
): AgentDefinition[] {
  const agents: AgentDefinition[] = [];
  let read = 0;
  for (const dir of componentDirs(root, 'agents', manifest.agents)) {
    const checked = inPlugin(root, path.relative(root, dir));
    if (checked === null) {
      problems.push({ file: dir, message: 'Not read: it leads outside the plugin.' });
      continue;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        problems.push({ file: dir, message: `Not read: ${(error as Error).message}.` });
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!entry.name.endsWith('.md')) continue;
      const file = path.join(dir, entry.name);
      if (read++ >= MAX_PLUGIN_AGENTS) {
        problems.push({
          file,
          message: `Not read: a plugin's first ${MAX_PLUGIN_AGENTS} agent files are read.`,
        });
        break;
      }
      // Links are not followed at all: lstat refuses them (readSkillText reads regular files only).
      const text = readSkillText(file);
      if (typeof text !== 'string') {
        problems.push({ file, message: `Not loaded: ${text.problem}.` });
        continue;
      }
      const parsed = parseAgentFile(text, { file, source: 'user' });
      if (!parsed.ok) {
        problems.push({ file, message: parsed.message });
        continue;
      }
      const name = `${manifest.name}:${parsed.agent.name}`;
      if (agents.some((a) => a.name === name)) {
        problems.push({ file, message: `Not loaded: the plugin already defines the agent "${name}".` });
        continue;
      }
      const ignored = ignoredKeys(text);
      if (ignored.length > 0)
        problems.push({
          file,
          message: `Loaded without its ${ignored.join(', ')}: a plugin's agent cannot set ${ignored.length > 1 ? 'them' : 'it'} (as in Claude Code).`,
        });
      agents.push({
        ...parsed.agent,
        name,
        permissionMode: null,
        systemPrompt: fill(parsed.agent.systemPrompt),
      });
    }
  }
  return agents;
}

/** An enabled plugin whose folder and manifest could be read. */
export interface EnabledPlugin {
  name: string;
  /** The plugin folder's real path. */
  root: string;
  manifest: PluginManifest;
}

/**
 * The enabled plugins, read afresh (a plugin is the person's folder and may change): on by the
 * settings' `enabledPlugins` or Carapace's switch (enabled-state.ts), for the project when `place`
 * names one. A plugin whose folder or manifest is gone or broken is reported in `problems` and skipped.
 */
export function enabledPlugins(place: PluginPlace): {
  plugins: EnabledPlugin[];
  problems: PluginProblem[];
} {
  const carapaceHome = typeof place === 'string' ? place : place.home;
  const problems: PluginProblem[] = [];
  const out: EnabledPlugin[] = [];
  const { plugins, problem, ignored } = listPlugins(carapaceHome);
  if (problem !== null) problems.push({ file: carapaceHome, message: `Plugins not loaded: ${problem}.` });
  for (const name of ignored ?? [])
    problems.push({
      file: registryFile(carapaceHome),
      message: `The entry ${JSON.stringify(name)} is ignored: a plugin's name is kebab-case and not "data" (install the plugin again under such a name).`,
    });
  const { states, problems: settingsProblems } = pluginStates(place, plugins);
  problems.push(...settingsProblems);
  for (const plugin of plugins) {
    if (states.get(plugin.name)?.enabled !== true) continue;
    let manifest: PluginManifest;
    let root: string;
    try {
      try {
        root = realpathSync.native(plugin.folder);
      } catch (error) {
        throw new PluginError(
          'NOT_A_PLUGIN',
          `its folder ${plugin.folder} cannot be read (${(error as Error).message}).`,
        );
      }
      manifest = readManifest(root);
    } catch (error) {
      const why = error instanceof PluginError ? error.message : (error as Error).message;
      problems.push({ file: plugin.folder, message: `Plugin "${plugin.name}" not loaded: ${why}` });
      continue;
    }
    if (manifest.name !== plugin.name) {
      problems.push({
        file: plugin.folder,
        message: `Plugin "${plugin.name}" not loaded: its manifest now names it "${manifest.name}"; install it again.`,
      });
      continue;
    }
    out.push({ name: plugin.name, root, manifest });
  }
  return { plugins: out, problems };
}

/**
 * A plugin's command folders (`commands/` and the manifest's), for the commands loader: each file is
 * named `plugin:command`. A folder leading outside the plugin is left out (the skills catalogue,
 * which reads the same plugins, reports it).
 */
export function pluginCommandFolders(
  place: PluginPlace,
): { dir: string; within: string; prefix: string; fill: (body: string) => string }[] {
  const carapaceHome = typeof place === 'string' ? place : place.home;
  const out: { dir: string; within: string; prefix: string; fill: (body: string) => string }[] = [];
  for (const p of enabledPlugins(place).plugins) {
    const fill = pluginVarsFiller(p.root, () => ensurePluginDataDir(carapaceHome, p.name));
    for (const dir of componentDirs(p.root, 'commands', p.manifest.commands))
      if (inPlugin(p.root, path.relative(p.root, dir)) !== null)
        out.push({ dir, within: p.root, prefix: p.name, fill });
  }
  return out;
}

/**
 * The skills, agents and hooks of every enabled plugin (for the project when `place` names one), read
 * afresh. Nothing a plugin names outside its own folder is read.
 */
export function loadPluginComponents(place: PluginPlace): PluginComponents {
  const carapaceHome = typeof place === 'string' ? place : place.home;
  const skillFolders: SkillsFolder[] = [];
  const agents: AgentDefinition[] = [];
  const hooks: ConfiguredHook[] = [];
  const { plugins, problems } = enabledPlugins(place);
  for (const { root, manifest } of plugins) {
    for (const dir of componentDirs(root, 'skills', manifest.skills)) {
      if (inPlugin(root, path.relative(root, dir)) === null) {
        problems.push({ file: dir, message: 'Not read: it leads outside the plugin.' });
        continue;
      }
      skillFolders.push({
        dir,
        source: 'plugin',
        within: root,
        namePrefix: `${manifest.name}:`,
        fill: pluginVarsFiller(root, () => ensurePluginDataDir(carapaceHome, manifest.name)),
      });
    }
    for (const dir of componentDirs(root, 'commands', manifest.commands))
      if (inPlugin(root, path.relative(root, dir)) === null)
        problems.push({ file: dir, message: 'Not read: it leads outside the plugin.' });
    const fill = pluginVarsFiller(root, () => ensurePluginDataDir(carapaceHome, manifest.name));
    agents.push(...pluginAgents(root, manifest, problems, fill));
    // The data folder is made only when a command hook is there to be given it.
    hooks.push(
      ...pluginHooks(root, manifest, problems, () => ensurePluginDataDir(carapaceHome, manifest.name)),
    );
  }
  return { skillFolders, agents, hooks, problems };
}
