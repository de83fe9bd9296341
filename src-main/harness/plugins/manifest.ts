import path from 'node:path';

/** Claude Code's rule for plugin names: kebab-case, no spaces. */
export const PLUGIN_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A plugin's `.claude-plugin/plugin.json`, as far as Carapace uses it. */
export interface PluginManifest {
  name: string;
  version: string | null;
  description: string | null;
  /** Folders of skills, agents and commands beyond the default `skills/`, `agents/`, `commands/`. */
  skills: string[];
  agents: string[];
  commands: string[];
  /** `hooks` and `mcpServers` as written: a path or an inline object (not run by this loader). */
  hooks: unknown;
  mcpServers: unknown;
}

export type ParsedManifest = { ok: true; manifest: PluginManifest } | { ok: false; message: string };

/**
 * Paths in a manifest are relative to the plugin's folder and start with `./` (Claude Code's rule);
 * one that climbs out of the folder or is absolute is refused, so a plugin names only its own files.
 */
function pathList(value: unknown, key: string, errors: string[]): string[] {
  if (value === undefined || value === null) return [];
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : null;
  if (items === null) {
    errors.push(`${key} must be a path or a list of paths`);
    return [];
  }
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' || !item.startsWith('./')) {
      errors.push(
        `${key} entries must be paths starting with ./ (found ${JSON.stringify(item).slice(0, 100)})`,
      );
      continue;
    }
    const normal = path.posix.normalize(item);
    if (normal === '..' || normal.startsWith('../') || item.includes('\0')) {
      errors.push(`${key} entry ${JSON.stringify(item).slice(0, 100)} leads outside the plugin`);
      continue;
    }
    if (!out.includes(normal)) out.push(normal);
  }
  return out;
}

function optionalText(value: unknown, key: string, errors: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    errors.push(`${key} must be text`);
    return null;
  }
  return value.trim().slice(0, 1000) || null;
}

/** Reads a plugin.json's text; every fault in one message, and a manifest with any fault is refused. */
export function parsePluginManifest(text: string): ParsedManifest {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, message: `plugin.json is not valid JSON (${(error as Error).message})` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, message: 'plugin.json must be a JSON object' };
  const m = data as Record<string, unknown>;
  const own = (k: string) => (Object.hasOwn(m, k) ? m[k] : undefined);
  const errors: string[] = [];
  const name = own('name');
  if (typeof name !== 'string') errors.push('name is missing or not text');
  else if (!PLUGIN_NAME.test(name))
    errors.push(
      `name "${name.slice(0, 64)}" must be kebab-case: lowercase letters, digits and hyphens, at most 64`,
    );
  const manifest = {
    version: optionalText(own('version'), 'version', errors),
    description: optionalText(own('description'), 'description', errors),
    skills: pathList(own('skills'), 'skills', errors),
    agents: pathList(own('agents'), 'agents', errors),
    commands: pathList(own('commands'), 'commands', errors),
    // A path is held to the same rule as the folders (an inline block is read by plugin-hooks.ts).
    hooks:
      typeof own('hooks') === 'string'
        ? (pathList(own('hooks'), 'hooks', errors)[0] ?? null)
        : (own('hooks') ?? null),
    mcpServers:
      typeof own('mcpServers') === 'string'
        ? (pathList(own('mcpServers'), 'mcpServers', errors)[0] ?? null)
        : (own('mcpServers') ?? null),
  };
  if (errors.length > 0 || typeof name !== 'string') return { ok: false, message: errors.join('; ') };
  return { ok: true, manifest: { name, ...manifest } };
}
