import type { PermissionMode } from '@shared/domain/permissions';

/** Model aliases an agent file may name; anything else is taken as a model id. */
export const MODEL_ALIASES = ['sonnet', 'opus', 'haiku', 'inherit'] as const;

/**
 * One kind of agent the Agent tool can start: a built-in one or a Markdown file with YAML
 * frontmatter (Claude Code's format). The body of the file is the agent's whole system prompt.
 */
export interface AgentDefinition {
  /** The `subagent_type` that selects it (lowercase-and-hyphens for files; built-ins keep their names). */
  name: string;
  /** When to use it: shown to the model in the Agent tool's description. */
  description: string;
  /** Tools it is offered, by name; null offers all the tools its parent has. */
  tools: string[] | null;
  /** Tools never offered, even if listed in `tools`. */
  disallowedTools: string[];
  /** `inherit` (the parent's model), an alias (`sonnet`, `opus`, `haiku`) or a full model id. */
  model: string;
  /** The mode it runs in; null takes the parent's. Never wider than the parent's. */
  permissionMode: PermissionMode | null;
  /** Model turns before it is stopped; null for the loop's default. */
  maxTurns: number | null;
  systemPrompt: string;
  source: 'built-in' | 'project' | 'user';
  /** The file it came from (null for built-ins). */
  file: string | null;
  /**
   * Read-only agents are never offered Write, Edit or NotebookEdit, and may run only the Bash
   * commands the analysis proves read-only (Explore, Plan, Verification's file side).
   */
  readOnly: boolean;
  /** Verification: may run tests and builds (Bash that writes only build output) despite readOnly. */
  runsChecks: boolean;
  /** Whether it may start sub-agents of its own (only when its `tools` lists Agent). */
  canSpawn: boolean;
  /** Its answer must end with `VERDICT: PASS` or `VERDICT: FAIL` (Verification). */
  verdict: boolean;
}

/** A file that could not be read as an agent: reported, skipped, never fatal. */
export interface AgentFileProblem {
  file: string;
  message: string;
}

/** Where the Agent tool's catalogue comes from: read again at every call, so new files apply at once. */
export type AgentCatalog = () => { agents: AgentDefinition[]; problems: AgentFileProblem[] };
