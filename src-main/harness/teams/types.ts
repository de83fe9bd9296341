import type { TeamMessage, TeamView } from '@shared/domain/team';
import type { ContentBlock } from '@shared/domain/messages';
import type { TurnResult } from '../engine/query-engine';
import type { AgentEvent } from '../events/agent-event';
import type { PermissionHandler } from '../permissions/handlers';
import type { TeammateTeam } from '../tools/tool';

/** What the team asks for when it builds a worker's runtime. */
export interface WorkerBuild {
  agentId: string;
  name: string;
  agentType: string;
  /** A new worker: the model asked for, if any. A restored one: the model it was given. */
  model: string | undefined;
  instructions: string;
  planMode: boolean;
  createdAt: string;
  transcriptFile: string;
  /** Take up the transcript already on disk (after a restart) instead of starting one. */
  resume: boolean;
  /** True while it must stay in plan mode (its plan not yet approved). */
  inPlanMode: () => boolean;
  /** Wraps the session's permission handler for the team's workers (attribution, waiting state). */
  handler: (parent: PermissionHandler | null) => PermissionHandler | null;
  capability: TeammateTeam;
  /** Events of agents it starts that run outside a tool call (its background agents). */
  onAgentEvent: (e: AgentEvent) => void;
}

/** A worker's runtime, as far as the team drives it. */
export interface BuiltWorker {
  agentType: string;
  model: string;
  run(
    prompt: string | ContentBlock[],
    options: { signal: AbortSignal },
  ): AsyncGenerator<AgentEvent, TurnResult>;
  close(): Promise<void>;
}

/**
 * Builds workers' runtimes (createRuntime, from the coordinator's setup): injected, so the team
 * knows nothing of how a runtime is wired.
 */
export interface WorkerFactory {
  /** The agent types a worker may be. */
  agentTypes(): { name: string; description: string }[];
  /** Throws a clear error for an agent type that does not exist (any more). */
  build(b: WorkerBuild): BuiltWorker;
}

/** What the team tells whoever shows it (the workspace, print mode). */
export interface TeamEvents {
  /** A member was added or ended, changed state, got mail, or sent a plan. */
  onChange?: ((team: TeamView) => void) | undefined;
  /** A message was delivered to a mailbox. */
  onMessage?: ((message: TeamMessage) => void) | undefined;
  /** Mail arrived for the coordinator (an idle coordinator should take it up). */
  onCoordinatorMail?: (() => void) | undefined;
}

/** A coordinator session's options. */
export interface CoordinatorSetup {
  /**
   * Keep a run going while workers still work, so their results come back before it ends (print
   * mode: the process would otherwise end under them). The workspace wakes an idle coordinator
   * when mail arrives instead.
   */
  waitForTeam?: boolean | undefined;
  events?: TeamEvents | undefined;
}
