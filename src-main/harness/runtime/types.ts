import type { PermissionMode } from '@shared/domain/permissions';
import type { SandboxService } from '../bash/sandbox';
import type { BudgetGate } from '../cost/budget/session-budget';
import type { AgentCatalog } from '../agents/definition';
import type { SkillCatalog } from '../skills/definition';
import type { QueryEngine, EngineOptions, TurnResult } from '../engine/query-engine';
import type { AgentEvent } from '../events/agent-event';
import type { EngineGate, PermissionLogEntry } from '../permissions/engine-gate';
import type { HookRunner } from '../hooks/dispatch';
import type { PermissionGate } from '../permissions/gate';
import type { PermissionHandler } from '../permissions/handlers';
import type { SourceLocations } from '../permissions/settings-sources';
import type { ContentBlock } from '@shared/domain/messages';
import type { TeamManager } from '../teams/team-manager';
import type { CoordinatorSetup } from '../teams/types';
import type { TeammateTeam } from '../tools/tool';
import type { McpManager } from '../mcp/types';
import type { FileHistory } from '../tools/file-history';

/** Who an agent is, when it is not a session's main agent. */
export interface AgentIdentity {
  agentId: string;
  parentId: string;
  agentType: string;
  name: string;
  /** The Agent call that started it; null for teammates. */
  toolUseId: string | null;
}

export type { AgentCatalog } from '../agents/definition';

/**
 * Everything one agent's runtime needs from whoever starts it (the workspace, `-p`, the Agent tool,
 * a team). Capabilities come in here; nothing below reaches back for them.
 */
export interface RuntimeSetup extends Pick<
  EngineOptions,
  | 'sessionId'
  | 'projectRoot'
  | 'model'
  | 'fallbackModel'
  | 'tools'
  | 'models'
  | 'toolEnv'
  | 'maxRetries'
  | 'appendSystemPrompt'
  | 'maxTurns'
  | 'taskEvents'
  | 'systemPrompt'
  | 'sleep'
> {
  /** The agent's JSONL transcript. */
  transcriptFile: string;
  /** The folder of the session's own files; beside the transcript, named for the session, by default. */
  sessionDir?: string | undefined;
  /** The session's file history, shared with its sub-agents and teammates (made for a main agent). */
  fileHistory?: FileHistory | undefined;
  /** Set for sub-agents and teammates; a session's main agent has the session's id and no parent. */
  agent?: AgentIdentity | undefined;
  /** Where its permission rules, sandbox settings and trust come from. */
  locations: SourceLocations;
  /** The person's home, for `~/` in rules and the sandbox's secret paths. */
  home: string;
  sandbox: SandboxService | null;
  /** The mode it starts in, and the mode read at every decision (a change applies at the next call). */
  initialMode: PermissionMode;
  mode: () => PermissionMode;
  /** Who answers an "ask"; null where nobody can be asked (print mode): asks become denials. */
  handler: PermissionHandler | null;
  onDecision?: (entry: PermissionLogEntry) => void;
  /** Narrows what the agent may do beyond the rules (a read-only agent's gate). */
  restrictGate?: ((gate: PermissionGate) => PermissionGate) | undefined;
  /** The agent types it may start; without a catalogue it has no Agent tool. */
  agents?: AgentCatalog | undefined;
  /** The skills it is offered through the Skill tool; without a catalogue it has no Skill tool. */
  skills?: SkillCatalog | undefined;
  /** The session's running agents by id, so one can be stopped alone (shared by the whole tree). */
  agentStops?: Map<string, AbortController> | undefined;
  /** How many agents above this one (0 for a session's main agent); bounds delegation. */
  depth?: number | undefined;
  /** Told of the events of agents it started that run outside a tool call (background agents). */
  onAgentEvent?: ((e: AgentEvent) => void) | undefined;
  /**
   * A coordinator session's main agent: its only tools are TeamCreate, TeamDelete, SendMessage and
   * SyntheticOutput, and it leads a team of workers built from this same setup.
   */
  coordinator?: CoordinatorSetup | undefined;
  /** A team's worker: its side of the team (sending a plan for approval). */
  teammate?: TeammateTeam | undefined;
  /**
   * false where the process ends with the run (print mode): the session is counted for autoDream
   * but no consolidation starts, since the exit would kill it (memory/dream/auto-dream.ts).
   */
  autoDream?: boolean | undefined;
  /**
   * The session's spending limits (cost/budget): one gate for the whole session, handed on to its
   * sub-agents and teammates with the rest of this setup, so they spend from the same budget.
   */
  budget?: BudgetGate | undefined;
  /**
   * The session's hooks (settings `hooks`): PreToolUse and PostToolUse for every agent of the session;
   * UserPromptSubmit and Stop for its main agent only.
   */
  hooks?: HookRunner | undefined;
  /** The session's MCP servers: their tools join the agent's at every turn, after its own. */
  mcp?: McpManager | undefined;
}

export interface AgentRuntime {
  engine: QueryEngine;
  gate: EngineGate;
  /** The folder of the session's own files: large outputs, temp folder, quarantine, sub-agents. */
  sessionDir: string;
  agentId: string;
  parentId: string | null;
  /** The team a coordinator leads; null for every other agent. */
  team: TeamManager | null;
  /**
   * Runs one turn. Yields this agent's events and, flattened, those of every agent it starts, each
   * tagged with who it comes from. Closing the generator early stops the turn (the engine's
   * `finally` aborts the request and the tools).
   */
  run(
    prompt: string | ContentBlock[],
    options?: { signal?: AbortSignal; tokenBudget?: number },
  ): AsyncGenerator<AgentEvent, TurnResult>;
  /** Runs the failed or cut-off last turn again, without a new message (see QueryEngine.retry). */
  retry(options?: { signal?: AbortSignal; tokenBudget?: number }): AsyncGenerator<AgentEvent, TurnResult>;
}
