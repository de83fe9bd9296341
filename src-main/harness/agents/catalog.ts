import type { AgentCatalog, AgentFileProblem } from './definition';
import { loadAgentDefinitions } from './load-agents';

/** Agent files are read again at most this often (the tool's description asks at every request). */
const FRESH_MS = 1000;

/**
 * The agent types a project's sessions may start: built-ins and agent files, read again when
 * older than a second so a file added mid-session is offered. Problems are reported once each.
 */
export function createAgentCatalog(o: {
  projectRoot: string;
  home: string;
  carapaceHome: string;
  onProblems?: (problems: AgentFileProblem[]) => void;
}): AgentCatalog {
  let cached: { at: number; value: ReturnType<AgentCatalog> } | null = null;
  const reported = new Set<string>();
  return () => {
    if (cached && Date.now() - cached.at < FRESH_MS) return cached.value;
    const value = loadAgentDefinitions({
      projectRoot: o.projectRoot,
      cwd: o.projectRoot,
      home: o.home,
      carapaceHome: o.carapaceHome,
    });
    cached = { at: Date.now(), value };
    const fresh = value.problems.filter((p) => !reported.has(`${p.file}\n${p.message}`));
    for (const p of fresh) reported.add(`${p.file}\n${p.message}`);
    if (fresh.length > 0) o.onProblems?.(fresh);
    return value;
  };
}
