import type { AgentCatalog } from '../agents/definition';
import type { PluginComponents } from './load-plugins';

/** Plugins are read again at most this often (the Agent tool's description asks at every request). */
const FRESH_MS = 1000;

/**
 * An agent catalogue with the enabled plugins' agents added (named `plugin:agent`, so they never
 * replace a built-in or a file's agent; Claude Code ranks plugin agents below project and user ones).
 * Their problems are not repeated here: the skills catalogue reads the same plugins and reports them.
 */
export function withPluginAgents(catalog: AgentCatalog, plugins: () => PluginComponents): AgentCatalog {
  let cached: { at: number; agents: PluginComponents['agents'] } | null = null;
  return () => {
    const base = catalog();
    if (!cached || Date.now() - cached.at >= FRESH_MS) cached = { at: Date.now(), agents: plugins().agents };
    const taken = new Set(base.agents.map((a) => a.name));
    return {
      agents: [...base.agents, ...cached.agents.filter((a) => !taken.has(a.name))],
      problems: base.problems,
    };
  };
}
