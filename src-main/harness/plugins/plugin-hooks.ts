import path from 'node:path';
import type { ConfiguredHook } from '../hooks/sources';
import { parseHooksBlock, type HookEntry } from '../hooks/schema';
import { readSkillText } from '../skills/read-skill-file';
import type { PluginManifest } from './manifest';

interface Problem {
  file: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`) become the plugin's folder, as Claude Code puts it in. */
export function withPluginRoot(text: string, root: string): string {
  return text.replace(/\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_])/g, () => root);
}

/** `${CLAUDE_PLUGIN_DATA}` (and `$CLAUDE_PLUGIN_DATA`) become the plugin's data folder. */
export function withPluginData(text: string, data: string): string {
  return text.replace(/\$\{CLAUDE_PLUGIN_DATA\}|\$CLAUDE_PLUGIN_DATA(?![A-Za-z0-9_])/g, () => data);
}

/** A hooks.json is `{ description?, hooks: {Event: [...]} }`; a bare events object is taken too. */
function eventsOf(data: unknown): unknown {
  if (isObject(data) && isObject(data['hooks'])) return data['hooks'];
  if (isObject(data)) {
    const rest = { ...data };
    delete rest['description'];
    return rest;
  }
  return data;
}

function read(file: string, problems: Problem[]): unknown {
  // Links are not followed (readSkillText refuses anything but a regular file), so the file is the plugin's.
  const text = readSkillText(file);
  if (typeof text !== 'string') {
    if (!text.problem.startsWith('it could not'))
      problems.push({ file, message: `Not loaded: ${text.problem}.` });
    else if (!/ENOENT/.test(text.problem)) problems.push({ file, message: `Not loaded: ${text.problem}.` });
    return undefined;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    problems.push({ file, message: `Not loaded: not valid JSON (${(error as Error).message}).` });
    return undefined;
  }
}

/**
 * A plugin's hooks: `hooks/hooks.json`, and the manifest's `hooks` (a `./` path inside the plugin, or
 * the block itself). Each is the source `plugin`: installing and enabling the plugin was the person's
 * choice, so they run without the project's trust; a disabled plugin's are never read.
 */
export function pluginHooks(
  root: string,
  manifest: PluginManifest,
  problems: Problem[],
  /** The plugin's data folder, made when first asked for. */
  dataDir: () => string,
): ConfiguredHook[] {
  const blocks: { file: string; data: unknown }[] = [];
  const defaultFile = path.join(root, 'hooks', 'hooks.json');
  const fromDefault = read(defaultFile, problems);
  if (fromDefault !== undefined) blocks.push({ file: defaultFile, data: fromDefault });
  const declared = manifest.hooks;
  if (typeof declared === 'string') {
    // The manifest has already refused a path leaving the plugin; normalised, it has lost its ./ .
    const normal = path.posix.normalize(declared);
    if (path.isAbsolute(normal) || normal === '..' || normal.startsWith('../'))
      problems.push({
        file: root,
        message: `Hooks ${declared.slice(0, 100)} not read: a plugin's paths start with ./ and stay inside it.`,
      });
    else {
      const file = path.join(root, normal);
      if (file !== defaultFile) {
        const data = read(file, problems);
        if (data !== undefined) blocks.push({ file, data });
      }
    }
  } else if (isObject(declared)) {
    blocks.push({ file: path.join(root, '.claude-plugin', 'plugin.json'), data: declared });
  } else if (declared !== null)
    problems.push({ file: root, message: 'Hooks in plugin.json must be a path or an object; ignored.' });

  const hooks: ConfiguredHook[] = [];
  for (const block of blocks) {
    const { entries, errors } = parseHooksBlock(eventsOf(block.data));
    for (const e of errors) problems.push({ file: block.file, message: `${e.message}; it is ignored` });
    for (const e of entries)
      hooks.push({ ...rooted(e, root, dataDir), source: 'plugin', file: block.file, plugin: manifest.name });
  }
  return hooks;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A command hook with `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` put in, and (for sh and bash)
 * both exported too, as Claude Code does, so a script the hook starts can read them. The data folder
 * is the plugin's own (`$CARAPACE_HOME/plugins/data/<name>`): the plugin names no path of it.
 */
function rooted(e: HookEntry, root: string, dataDir: () => string): HookEntry {
  if (e.handler.type !== 'command') return e;
  const data = dataDir();
  const command = withPluginData(withPluginRoot(e.handler.command, root), data);
  const exported =
    e.handler.shell === 'powershell'
      ? command
      : `export CLAUDE_PLUGIN_ROOT=${shellQuote(root)} CLAUDE_PLUGIN_DATA=${shellQuote(data)}; ${command}`;
  return { ...e, handler: { ...e.handler, command: exported } };
}
