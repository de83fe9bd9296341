import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSkillText } from '../skills/read-skill-file';
import { isInside } from '../tools/paths';
import { copyPluginFolder, PluginCopyError } from './copy-plugin';
import { parsePluginManifest, PLUGIN_NAME, type PluginManifest } from './manifest';

/** One plugin the person installed from a local folder. */
export interface InstalledPlugin {
  name: string;
  /** The plugin's own copy, `$CARAPACE_HOME/plugins/<name>`; its files are read from there. */
  folder: string;
  /** The local folder it was copied from (its real path); absent in lists written before copying. */
  source?: string;
  enabled: boolean;
  installedAt: string;
}

/** A plugin that could not be installed, or a registry that cannot be changed safely. */
export class PluginError extends Error {
  constructor(
    readonly code:
      'NOT_A_PLUGIN' | 'INVALID_MANIFEST' | 'NAME_TAKEN' | 'NOT_INSTALLED' | 'REGISTRY_UNREADABLE',
    message: string,
  ) {
    super(message);
    this.name = 'PluginError';
  }
}

/** Where the installed plugins are listed: Carapace's own settings folder. */
export function registryFile(carapaceHome: string): string {
  return path.join(carapaceHome, 'plugins', 'installed.json');
}

/** Where installed plugins are copied: `$CARAPACE_HOME/plugins/<name>`. */
export function pluginsDir(carapaceHome: string): string {
  return path.join(carapaceHome, 'plugins');
}

/**
 * The folder where plugins keep their data: `$CARAPACE_HOME/plugins/data/<name>`. A plugin therefore
 * cannot be called `data` (its copy would be this folder).
 */
export const DATA_FOLDER = 'data';

/**
 * A plugin's persistent folder (`${CLAUDE_PLUGIN_DATA}`), kept when the plugin is disabled or installed
 * again, removed on uninstall unless asked to keep it (as Claude Code's `--keep-data`). The name is a
 * checked plugin name (kebab-case), so the path never leaves the data folder.
 */
export function pluginDataDir(carapaceHome: string, name: string): string {
  if (!PLUGIN_NAME.test(name)) throw new PluginError('NOT_INSTALLED', `"${name}" is not a plugin name.`);
  return path.join(pluginsDir(carapaceHome), DATA_FOLDER, name);
}

/** The data folder, made when a hook or MCP server of the plugin is about to be given it. */
export function ensurePluginDataDir(carapaceHome: string, name: string): string {
  const dir = pluginDataDir(carapaceHome, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The folder's manifest, read warily (a size limit, no FIFO, no link followed). */
export function readManifest(folder: string): PluginManifest {
  const file = path.join(folder, '.claude-plugin', 'plugin.json');
  try {
    if (!statSync(folder).isDirectory()) throw new PluginError('NOT_A_PLUGIN', `${folder} is not a folder.`);
  } catch (error) {
    if (error instanceof PluginError) throw error;
    throw new PluginError('NOT_A_PLUGIN', `${folder} cannot be read (${(error as Error).message}).`);
  }
  const text = readSkillText(file);
  if (typeof text !== 'string')
    throw new PluginError(
      'NOT_A_PLUGIN',
      `${folder} is not a plugin: its .claude-plugin/plugin.json ${text.problem.startsWith('it could not') ? 'is missing or unreadable' : text.problem.replace(/^it /, 'is ')}.`,
    );
  const parsed = parsePluginManifest(text);
  if (!parsed.ok) throw new PluginError('INVALID_MANIFEST', `${file}: ${parsed.message}.`);
  return parsed.manifest;
}

/**
 * The installed plugins, and why the list could not be read if it could not (then it is empty);
 * `ignored` names entries left out for a name that is no plugin name.
 */
export function listPlugins(carapaceHome: string): {
  plugins: InstalledPlugin[];
  problem: string | null;
  ignored?: string[];
} {
  const file = registryFile(carapaceHome);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { plugins: [], problem: null };
    return { plugins: [], problem: `${file} cannot be read (${(error as Error).message})` };
  }
  try {
    const data = JSON.parse(text) as { plugins?: unknown };
    if (!Array.isArray(data.plugins)) throw new Error('it has no "plugins" list');
    // An entry whose name is not a plugin name (a hand-edited `../x`, or `data`) is left out: the
    // name becomes a path (the copy, the data folder) that must stay in the plugins folder.
    const ignored: string[] = [];
    const plugins = data.plugins.filter((p): p is InstalledPlugin => {
      if (
        typeof p !== 'object' ||
        p === null ||
        typeof (p as InstalledPlugin).name !== 'string' ||
        typeof (p as InstalledPlugin).folder !== 'string' ||
        typeof (p as InstalledPlugin).enabled !== 'boolean'
      )
        return false;
      const name = (p as InstalledPlugin).name;
      if (PLUGIN_NAME.test(name) && name !== DATA_FOLDER) return true;
      ignored.push(name.slice(0, 100));
      return false;
    });
    return { plugins, problem: null, ...(ignored.length > 0 ? { ignored } : {}) };
  } catch (error) {
    return { plugins: [], problem: `${file} is not a valid plugin list (${(error as Error).message})` };
  }
}

function change(
  carapaceHome: string,
  edit: (plugins: InstalledPlugin[]) => InstalledPlugin[],
): InstalledPlugin[] {
  const { plugins, problem } = listPlugins(carapaceHome);
  // A list that cannot be read is never overwritten: the person's other plugins would be lost.
  if (problem !== null) throw new PluginError('REGISTRY_UNREADABLE', `${problem}; fix or remove it first.`);
  const next = edit(plugins);
  const file = registryFile(carapaceHome);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, plugins: next }, null, 2)}\n`);
  renameSync(tmp, file);
  return next;
}

/**
 * Installs the plugin in a local folder (Claude Code's layout: `.claude-plugin/plugin.json`), enabled:
 * its manifest is checked, then the folder is copied to `$CARAPACE_HOME/plugins/<name>` (refused if it
 * links outside itself, holds a FIFO or device, or is absurdly large), so later edits or links in the
 * original change nothing. Installing from the same folder again refreshes the copy; another folder
 * under a taken name is refused.
 */
export function installPlugin(carapaceHome: string, folder: string, now = new Date()): InstalledPlugin {
  let real: string;
  try {
    real = realpathSync.native(folder);
  } catch (error) {
    throw new PluginError('NOT_A_PLUGIN', `${folder} cannot be read (${(error as Error).message}).`);
  }
  const dir = pluginsDir(carapaceHome);
  let realDir = dir;
  try {
    realDir = realpathSync.native(dir);
  } catch {
    // not made yet
  }
  if (isInside(realDir, real) || isInside(real, realDir))
    throw new PluginError(
      'NOT_A_PLUGIN',
      `${folder} is (or holds) Carapace's own plugins folder; install from the plugin's own folder.`,
    );
  const manifest = readManifest(real);
  if (manifest.name === DATA_FOLDER)
    throw new PluginError(
      'INVALID_MANIFEST',
      `A plugin cannot be named "${DATA_FOLDER}" here: Carapace keeps the plugins' data folders under that name. Rename it in its plugin.json.`,
    );
  const listed = listPlugins(carapaceHome);
  if (listed.problem !== null)
    throw new PluginError('REGISTRY_UNREADABLE', `${listed.problem}; fix or remove it first.`);
  const taken = listed.plugins.find((p) => p.name === manifest.name);
  if (taken && (taken.source ?? taken.folder) !== real)
    throw new PluginError(
      'NAME_TAKEN',
      `A plugin named "${manifest.name}" is already installed from ${taken.source ?? taken.folder}; uninstall it first.`,
    );
  const target = path.join(dir, manifest.name);
  const staging = path.join(dir, `.${manifest.name}.${process.pid}.tmp`);
  mkdirSync(dir, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  try {
    copyPluginFolder(real, staging);
  } catch (error) {
    if (error instanceof PluginCopyError)
      throw new PluginError('NOT_A_PLUGIN', `${folder} was not installed: ${error.message}`);
    throw new PluginError('NOT_A_PLUGIN', `${folder} could not be copied (${(error as Error).message}).`);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  const record: InstalledPlugin = {
    name: manifest.name,
    folder: target,
    source: real,
    enabled: true,
    installedAt: now.toISOString(),
  };
  change(carapaceHome, (plugins) => [...plugins.filter((p) => p.name !== manifest.name), record]);
  return record;
}

export function setPluginEnabled(carapaceHome: string, name: string, enabled: boolean): InstalledPlugin {
  const next = change(carapaceHome, (plugins) =>
    plugins.map((p) => (p.name === name ? { ...p, enabled } : p)),
  );
  const found = next.find((p) => p.name === name);
  if (!found) throw new PluginError('NOT_INSTALLED', `There is no installed plugin "${name}".`);
  return found;
}

/**
 * Forgets a plugin and removes Carapace's copy of it, and its data folder unless `keepData` (Claude
 * Code removes it too unless `--keep-data`); the folder it came from is left as it is.
 */
export function uninstallPlugin(carapaceHome: string, name: string, o: { keepData?: boolean } = {}): void {
  const found = listPlugins(carapaceHome).plugins.find((p) => p.name === name);
  if (!found) throw new PluginError('NOT_INSTALLED', `There is no installed plugin "${name}".`);
  change(carapaceHome, (plugins) => plugins.filter((p) => p.name !== name));
  // Only a copy in Carapace's own plugins folder is removed (a list entry names the folder it uses).
  const copy = path.join(pluginsDir(carapaceHome), name);
  if (path.resolve(found.folder) === copy) rmSync(copy, { recursive: true, force: true });
  if (o.keepData !== true) rmSync(pluginDataDir(carapaceHome, name), { recursive: true, force: true });
}
