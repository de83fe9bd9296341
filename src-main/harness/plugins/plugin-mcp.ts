import path from 'node:path';
import { parseServerConfig, type ServerEntry } from '../mcp/config';
import { readSkillText } from '../skills/read-skill-file';
import type { PluginPlace } from './enabled-state';
import { enabledPlugins } from './load-plugins';
import { ensurePluginDataDir } from './registry';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `.mcp.json` is `{ mcpServers: {...} }`; plugin.json's `mcpServers` is the map itself. */
function serversOf(data: unknown): unknown {
  return isObject(data) && isObject(data['mcpServers']) ? data['mcpServers'] : data;
}

/**
 * The MCP servers of the enabled plugins (`.mcp.json` at the plugin's root, and plugin.json's
 * `mcpServers`: a `./` path or the servers themselves), scope `plugin`. Each is named
 * `plugin:<plugin>:<server>`, so its tools are `mcp__plugin_<plugin>_<server>__<tool>` as in Claude
 * Code. `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` (the plugin's data folder, made when it has
 * a server) are filled in and given to a stdio server's environment. Files are read without following
 * links (a plugin names only its own files) and within a size limit.
 */
export function pluginMcpServers(
  place: PluginPlace,
  env: NodeJS.ProcessEnv,
): { servers: ServerEntry[]; problems: string[] } {
  const carapaceHome = typeof place === 'string' ? place : place.home;
  const servers: ServerEntry[] = [];
  const problems: string[] = [];
  for (const p of enabledPlugins(place).plugins) {
    const sources: { file: string; data: unknown }[] = [];
    const read = (file: string) => {
      const text = readSkillText(file);
      if (typeof text !== 'string') {
        if (!/ENOENT/.test(text.problem)) problems.push(`${file}: not read: ${text.problem}`);
        return;
      }
      try {
        sources.push({ file, data: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown });
      } catch (error) {
        problems.push(
          `${file} is not valid JSON (${(error as Error).message}); its MCP servers are not loaded`,
        );
      }
    };
    const defaultFile = path.join(p.root, '.mcp.json');
    read(defaultFile);
    const declared = p.manifest.mcpServers;
    // The manifest has already refused a path leaving the plugin.
    if (typeof declared === 'string') {
      const file = path.join(p.root, declared);
      if (file !== defaultFile) read(file);
    } else if (isObject(declared))
      sources.push({ file: path.join(p.root, '.claude-plugin', 'plugin.json'), data: declared });
    if (sources.length === 0) continue;
    const dataDir = ensurePluginDataDir(carapaceHome, p.name);
    const pluginEnv = { CLAUDE_PLUGIN_ROOT: p.root, CLAUDE_PLUGIN_DATA: dataDir };
    const withRoot = { ...env, ...pluginEnv };
    for (const { file, data } of sources) {
      const map = serversOf(data);
      if (!isObject(map)) {
        problems.push(`${file}: "mcpServers" must be an object; ignored`);
        continue;
      }
      for (const [server, raw] of Object.entries(map)) {
        const name = `plugin:${p.name}:${server}`;
        if (servers.some((s) => s.name === name)) continue;
        const config = parseServerConfig(name, raw, file, withRoot, problems);
        if (!config) continue;
        servers.push({
          name,
          scope: 'plugin',
          configFile: file,
          config: config.type === 'stdio' ? { ...config, env: { ...pluginEnv, ...config.env } } : config,
        });
      }
    }
  }
  return { servers, problems };
}
