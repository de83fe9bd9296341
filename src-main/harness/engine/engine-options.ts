import type { NoticeItem, MessageItem } from '@shared/domain/messages';
import type { PermissionDenial, PermissionMode } from '@shared/domain/permissions';
import type { TokenUsage } from '@shared/domain/usage';
import type { BudgetGate } from '../cost/budget/session-budget';
import type { DescribedApiError } from '../model/api-errors';
import type { ModelRouter } from '../model/model-client';
import type { CompactionOptions } from '../loop/session-compaction';
import type { Terminal } from '../loop/types';
import type { PermissionGate } from '../permissions/gate';
import type { TranscriptWriter } from '../session/transcript-file';
import type { FileHistory } from '../tools/file-history';
import type { AgentSpawner, AnyTool, TeamCapability } from '../tools/tool';
import type { ShellExecutor } from '../bash/shell-executor';
import type { TaskEvents } from '../tasks/task-manager';
import type { SessionMemoryPrompt } from '../memory/memory-prompt';
import type { InstructionRoots } from '../memory/instructions/types';
import type { MemoryRecall } from '../memory/recall/memory-recall';

// What a QueryEngine is made with and what its turns return (query-engine.ts re-exports both).

export interface EngineOptions {
  sessionId: string;
  projectRoot: string;
  cwd: string;
  /** Folder for this session's files (large tool output). */
  sessionDir: string;
  writer: TranscriptWriter;
  /** The session's file history (shared by its agents, persisted for rewind); a private one if absent. */
  fileHistory?: FileHistory | undefined;
  model: string;
  fallbackModel?: string | undefined;
  permissionMode: PermissionMode;
  gate: PermissionGate;
  tools: readonly AnyTool[];
  /** Tools that come and go during the session (MCP servers), after `tools`; read at every turn. */
  extraTools?: (() => readonly AnyTool[]) | undefined;
  models: ModelRouter;
  /** Environment for commands the model runs, already without secrets. */
  toolEnv: NodeJS.ProcessEnv;
  appendSystemPrompt?: string | undefined;
  maxTurns?: number | undefined;
  maxOutputTokens?: number | undefined;
  maxRetries?: number | undefined;
  onStop?: ((messages: readonly MessageItem[]) => Promise<string | null>) | undefined;
  /**
   * UserPromptSubmit hooks: asked before a prompt is sent. A block refuses the prompt (it is neither
   * sent nor kept); context travels with it as a user-role note; messages are shown as warnings.
   */
  onPromptSubmit?:
    | ((
        prompt: string,
        signal: AbortSignal,
      ) => Promise<{ blocked: string | null; context: string | null; messages: string[] }> | null)
    | undefined;
  /** Hook runs to show as notes in the transcript, taken between the turn's events (hooks/notes.ts). */
  hookNotes?: { drain(): NoticeItem[] } | undefined;
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  platform?: string;
  /** How Bash runs for this session (PTY, sandbox); unsandboxed when not given. */
  shell?: ShellExecutor | undefined;
  /** Told when background tasks change or print. */
  taskEvents?: TaskEvents | undefined;
  /** This agent's id (the session's id for its main agent). */
  agentId?: string | undefined;
  /**
   * The agent's own system prompt (a sub-agent's definition), used instead of the session's;
   * the environment details are appended either way.
   */
  systemPrompt?: string | undefined;
  /** Starts sub-agents for the Agent tool; absent where this agent may not delegate. */
  agents?: AgentSpawner | undefined;
  /** The team it leads or works in, for the team tools; absent outside a team. */
  team?: TeamCapability | undefined;
  /**
   * Where instruction files are looked for besides the project (tests point these at temp folders);
   * the person's home, `$CARAPACE_HOME` and the managed folders by default.
   */
  instructionRoots?: Partial<Omit<InstructionRoots, 'projectDir'>> | undefined;
  /** Recalls memories for each user turn (issue 10); absent where auto memory does not apply. */
  recall?: MemoryRecall | undefined;
  /** The auto-memory section of the system prompt (issue 10), read once per session; none for sub-agents. */
  memoryPrompt?: SessionMemoryPrompt | undefined;
  /** The session's spending limits, shared by all its agents (cost/budget). */
  budget?: BudgetGate | undefined;
  /** The time now (tests move it); the system's clock by default. */
  clock?: (() => Date) | undefined;
  /** Microcompact and autocompact settings (defaults: keep the 5 latest results, compact at 83.5 %). */
  compaction?: CompactionOptions | undefined;
}

export interface TurnResult {
  sessionId: string;
  terminal: Terminal;
  /** The last assistant text of the turn. */
  text: string;
  /** Model responses kept in this turn. */
  numTurns: number;
  durationMs: number;
  durationApiMs: number;
  usage: TokenUsage;
  permissionDenials: PermissionDenial[];
  error: DescribedApiError | null;
}
