import type { z } from 'zod';
import type { ImageBlock, TextBlock, ToolDisplay } from '@shared/domain/messages';
import type { PermissionMode } from '@shared/domain/permissions';
import type { TeamMember, TeamMessage } from '@shared/domain/team';
import type { ShellExecutor } from '../bash/shell-executor';
import type { AgentEvent, AgentOutcome } from '../events/agent-event';
import type { AccumulatedMessage } from '../model/accumulate';
import type { ModelRequest, RawStreamEvent } from '../model/model-client';
import type { TaskManager } from '../tasks/task-manager';
import type { FileHistory } from './file-history';
import type { ReadFileState } from './read-file-state';

/** What a tool hands back to the model, plus what the UI shows of it. */
export interface ToolOutput {
  content: string | (TextBlock | ImageBlock)[];
  isError?: boolean;
  display?: ToolDisplay;
  /**
   * A change to the context for the tools that run after this one (e.g. a new cwd). Honoured only for
   * tools that are not concurrency-safe: parallel tools must not race on shared state.
   */
  contextModifier?: (ctx: ToolUseContext) => ToolUseContext;
}

/**
 * Live output of a running tool: a line of text shown on its card, or an event of a sub-agent the
 * tool started (passed up unchanged, so every ancestor sees its descendants' work as it happens).
 */
export type ToolProgress = { text: string; agent?: undefined } | { agent: AgentEvent; text?: undefined };

/** One Agent call's request to start a sub-agent. */
export interface SpawnRequest {
  agentType: string;
  prompt: string;
  description: string;
  /** A model alias or id asked for by the call; the definition's model otherwise. */
  model?: string | undefined;
  toolUseId: string;
}

/** What a finished sub-agent hands back to the call that started it. */
export interface SpawnResult extends AgentOutcome {
  agentId: string;
  agentType: string;
  model: string;
  /** Its own usage and cost, and with its descendants'. */
  costUsd: number;
  totalCostUsd: number;
  totalTokens: number;
  toolUseCount: number;
  durationMs: number;
}

/**
 * The capability to start sub-agents, injected per runtime (never imported by tools): a runtime
 * whose agent may not delegate simply has none.
 */
export interface AgentSpawner {
  /** Agent types this runtime may start, with when to use each (for the Agent tool's description). */
  catalog(): { name: string; description: string }[];
  /** Runs a sub-agent to its end; yields its events (and its descendants'), tagged with their ids. */
  run(request: SpawnRequest, signal: AbortSignal): AsyncGenerator<AgentEvent, SpawnResult>;
}

/** Everything a tool may touch. Tools get capabilities here, never through imports. */
export interface ToolUseContext {
  /** The id of the tool_use block being run (set per call by the executor). */
  toolUseId: string;
  /** Where relative paths resolve and commands run. */
  cwd: string;
  /** The project root, fixed for the session. */
  projectRoot: string;
  /** Where this session keeps its files (large outputs). */
  sessionDir: string;
  abortSignal: AbortSignal;
  permissionMode: PermissionMode;
  readFileState: ReadFileState;
  fileHistory: FileHistory;
  /** The session's todo list, owned by TodoWrite. */
  todos: { items: TodoItem[] };
  /** Environment for child processes, already stripped of secrets. */
  env: NodeJS.ProcessEnv;
  /** How Bash commands run (PTY, sandbox, cwd tracking). */
  shell: ShellExecutor;
  /**
   * Set per call by the executor when the permission gate resolved the call's paths: where they
   * really led (symlinks followed). File tools refuse any other destination at use time.
   */
  checkedPaths?: readonly string[];
  /** The session's background tasks, where there are any. */
  tasks?: TaskManager;
  /** The agent running the tool (the session's id for its main agent). */
  agentId?: string;
  /** Starts sub-agents; absent where this agent may not delegate. */
  agents?: AgentSpawner;
  /** The team this agent leads (a coordinator) or works in (a worker); absent outside a team. */
  team?: TeamCapability;
  /**
   * Instructions that reading `file` brings into play (its folder's CLAUDE.md, matching `paths` rules),
   * as text to attach to the Read result, each file once per session; null when there are none.
   */
  instructionsFor?: (file: string) => Promise<string | null>;
  /** One model request outside the loop, paid by the session (WebFetch's reader, WebSearch). */
  sideModel?: SideModel;
}

/** A model request a tool makes on the session's account: its usage is counted with the session's. */
export interface SideModel {
  /** The small, fast model (the session's own where there is none beside it: the demo model). */
  readonly smallModel: string;
  /** Streams the request to its whole message; `onEvent` sees every raw event (server tool results). */
  request(
    request: ModelRequest,
    signal: AbortSignal,
    onEvent?: (event: RawStreamEvent) => void,
  ): Promise<AccumulatedMessage>;
}

/** A worker to create, as TeamCreate asks for it. */
export interface WorkerSpec {
  name: string;
  agentType: string;
  model?: string | undefined;
  instructions: string;
  /** Start in plan mode: it must have a plan approved before it changes anything. */
  planMode: boolean;
}

/**
 * What a coordinator may do with its team, injected per runtime (never imported by tools). Bad input
 * (an unknown worker, a taken name) throws an error whose message is meant for the model.
 */
export interface CoordinatorTeam {
  role: 'coordinator';
  /** Agent types a worker may be, with when to use each. */
  agentTypes(): { name: string; description: string }[];
  members(): TeamMember[];
  create(specs: readonly WorkerSpec[]): TeamMember[];
  /** Ends workers (all for `*`): stops what they are doing; returns the names ended. */
  remove(names: readonly string[]): Promise<string[]>;
  /** Writes to a worker's mailbox (every active worker's for `*`); returns the messages delivered. */
  send(to: string, text: string): TeamMessage[];
  /** Waits until each named worker has written back after `afterSeq`; those replies count as read. */
  waitForReplies(names: readonly string[], afterSeq: number, signal: AbortSignal): Promise<TeamMessage[]>;
  /** The sequence number of the newest message so far (what `waitForReplies` waits past). */
  lastSeq(): number;
  decidePlan(member: string, approve: boolean, feedback: string): TeamMessage;
  /** The coordinator's structured final output (SyntheticOutput). */
  setOutput(value: Record<string, unknown>): void;
}

/** What a worker may do as a member of its team. */
export interface TeammateTeam {
  role: 'worker';
  name: string;
  /** Sends its plan for approval (plan mode); throws if it has nothing to ask approval for. */
  submitPlan(plan: string): TeamMessage;
}

export type TeamCapability = CoordinatorTeam | TeammateTeam;

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
}

export type PermissionResult =
  { behavior: 'allow' } | { behavior: 'deny'; message: string } | { behavior: 'ask'; message: string };

/**
 * One tool, in six groups: definition, safety, execution, permissions, UI (a renderer-side registry
 * keyed by `name`), lifecycle (hooks run around `call`, by the executor).
 */
export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  /** The prompt text the model reads; kept in a sibling .md file. */
  readonly description: string;
  readonly inputSchema: S;
  isReadOnly(input: z.infer<S>): boolean;
  isConcurrencySafe(input: z.infer<S>): boolean;
  isDestructive(input: z.infer<S>): boolean;
  /** The tool's own view; the permission system still decides. */
  checkPermissions(input: z.infer<S>, ctx: ToolUseContext): Promise<PermissionResult>;
  /** Yields progress, returns the result. Throwing is allowed: the executor turns it into an error result. */
  call(input: z.infer<S>, ctx: ToolUseContext): AsyncGenerator<ToolProgress, ToolOutput>;
  /** Paths a call writes, for the permission gate (Write/Edit); empty for tools that write nothing. */
  writesTo(input: z.infer<S>, ctx: ToolUseContext): string[];
  /**
   * Output longer than this is saved to a file in the session folder and the model gets its head, tail
   * and path instead.
   */
  readonly maxResultChars: number;
}

export const DEFAULT_MAX_RESULT_CHARS = 30_000;

export type ToolDef<S extends z.ZodType> = Pick<Tool<S>, 'name' | 'description' | 'inputSchema' | 'call'> &
  Partial<Omit<Tool<S>, 'name' | 'description' | 'inputSchema' | 'call'>>;

/**
 * Fills in the fail-closed defaults: not concurrency-safe, not read-only, not destructive, and
 * `checkPermissions` allowing (the outer permission system still decides).
 */
export function buildTool<S extends z.ZodType>(def: ToolDef<S>): Tool<S> {
  return {
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    isDestructive: () => false,
    checkPermissions: () => Promise.resolve({ behavior: 'allow' }),
    writesTo: () => [],
    maxResultChars: DEFAULT_MAX_RESULT_CHARS,
    ...def,
  };
}

/** Any tool, whatever its schema: how registries and the executor hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogenous list needs an erased input type
export type AnyTool = Tool<any>;
