import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import {
  messageText,
  type ContentBlock,
  type MessageItem,
  type NoticeItem,
  type TranscriptItem,
} from '@shared/domain/messages';
import type { PermissionDenial, PermissionMode } from '@shared/domain/permissions';
import type { TokenUsage } from '@shared/domain/usage';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import { loadBashParser } from '../bash/tree-sitter';
import { buildSystemPrompt } from '../context/system-prompt';
import { takeGitSnapshot, type GitSnapshot } from '../context/git-status';
import { dateChangeNote, dayOf } from '../context/date-change';
import type { CostTracker, UsageReport } from '../cost/tracker';
import type { BudgetGate } from '../cost/budget/session-budget';
import { subagentUsageLines } from '../cost/ledger/subagent-usage';
import { Conversation } from './conversation';
import { TurnFold, usageReport } from './turn-fold';
import { PartialReplyWriter } from './partial-reply';
import { failedTail, interruptedReplies, turnUnfinished } from '../session/interrupted-turn';
import type { DescribedApiError } from '../model/api-errors';
import type { ModelRouter } from '../model/model-client';
import { queryLoop } from '../loop/query-loop';
import { SessionCompaction, type CompactionOptions } from '../loop/session-compaction';
import type { ContextMeter } from '../loop/autocompact';
import { manualCompact, parseCompactCommand } from '../loop/manual-compact';
import type { LoopEvent, Terminal } from '../loop/types';
import type { EngineEvent } from '../events/agent-event';
import type { PermissionGate } from '../permissions/gate';
import type { TranscriptLine, TranscriptWriter } from '../session/transcript-file';
import { FileHistory } from '../tools/file-history';
import { ReadFileState } from '../tools/read-file-state';
import type {
  AgentSpawner,
  AnyTool,
  SideModel,
  TeamCapability,
  TodoItem,
  ToolUseContext,
} from '../tools/tool';
import { plainShell, type ShellExecutor } from '../bash/shell-executor';
import { TaskManager, type TaskEvents } from '../tasks/task-manager';
import type { SessionMemoryPrompt } from '../memory/memory-prompt';
import { SessionInstructions } from '../memory/instructions/session-instructions';
import { renderAttachment } from '../memory/instructions/render';
import type { InstructionRoots, LoadedFile, LoadedInstructions } from '../memory/instructions/types';
import { carapaceHome } from '../../platform/paths';
import type { MemoryRecall } from '../memory/recall/memory-recall';
import { smallModelFrom } from '../memory/recall/small-model';
import { sideRequest } from '../model/side-request';

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

export type { EngineEvent } from '../events/agent-event';

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

const now = () => new Date().toISOString();

/** What a reply the app died in says when the session is next opened. */
export const INTERRUPTED_BY_EXIT = 'Stopped — the app closed before the reply finished.';

function notice(level: NoticeItem['level'], text: string, code: string): NoticeItem {
  return { kind: 'notice', id: randomUUID(), level, text, code, createdAt: now() };
}

/** A quiet line for the transcript about a recovery step, or null for plain turns. */
function describeTransition(e: Extract<LoopEvent, { type: 'transition' }>): string | null {
  return e.transition.reason === 'next_turn' ? null : `${e.transition.detail} (${e.transition.reason}).`;
}

/**
 * One session: multi-turn state, persistence, usage and cost, resume. It consumes `queryLoop` for
 * each user turn and appends every finished message to the session's JSONL as it happens.
 * Cancelling aborts the request and the tools; the transcript stays valid (interrupted tool calls
 * get results saying so).
 */
export class QueryEngine {
  private readonly conversation: Conversation;
  private readonly readFileState = new ReadFileState();
  private readonly fileHistory: FileHistory;
  private readonly todos: { items: TodoItem[] } = { items: [] };
  private cwd: string;
  private running: AbortController | null = null;
  private readonly shell: ShellExecutor;
  /** CLAUDE.md and the rest; none for a sub-agent, whose own prompt replaces the session's. */
  private readonly instructions: SessionInstructions | null;
  /** Instruction notices already shown, so an unchanged problem is not repeated every turn. */
  private readonly shownInstructionNotices = new Set<string>();
  /** The session's background tasks; they end with the session. */
  readonly tasks: TaskManager;
  model: string;

  private readonly options: EngineOptions;
  /**
   * The date the system prompt gives: the session's first, so the cached prefix (tools → system)
   * stays byte-identical for the whole session.
   */
  private readonly sessionDate: Date;
  /** The last day the model was told of (the system prompt's, then each date-change note's). */
  private announcedDay: string;
  /** Microcompact's cleared results and autocompact's circuit breaker, kept across turns. */
  private readonly compaction: SessionCompaction;
  /** Branch and status for the system prompt: taken once, at the start, so the prompt never changes. */
  private readonly gitSnapshot: Promise<GitSnapshot | null>;
  private git: GitSnapshot | null = null;
  /** The system prompt the last turn sent (a /compact's summary request sends it too). */
  private lastSystemPrompt: string | null = null;

  constructor(options: EngineOptions) {
    this.options = { ...options };
    this.model = options.model;
    this.cwd = options.cwd;
    this.fileHistory = options.fileHistory ?? new FileHistory();
    this.compaction = new SessionCompaction(options.compaction);
    this.sessionDate = this.now();
    this.announcedDay = dayOf(this.sessionDate);
    // A sub-agent's own prompt gets the environment only (as in Claude Code's Explore and Plan).
    this.gitSnapshot =
      options.systemPrompt === undefined ? takeGitSnapshot(options.cwd) : Promise.resolve(null);
    // The Bash analysis decides which commands may run in parallel: have its parser ready early.
    loadBashParser().catch(() => undefined);
    this.conversation = new Conversation(
      options.agentId ?? options.sessionId,
      options.writer,
      options.sessionId,
    );
    this.shell = options.shell ?? plainShell(options.toolEnv);
    this.tasks = new TaskManager(options.sessionId, this.shell, options.taskEvents ?? {});
    this.instructions =
      options.systemPrompt === undefined
        ? new SessionInstructions({
            projectDir: options.projectRoot,
            homeDir: options.instructionRoots?.homeDir ?? homedir(),
            carapaceHome: options.instructionRoots?.carapaceHome ?? carapaceHome(),
            managedDirs: options.instructionRoots?.managedDirs,
          })
        : null;
  }

  /**
   * Every instruction file and memory in this session's context as of the last turn, in precedence
   * order, with the import that pulled each in (the memory browser's "Loaded in this session").
   */
  loadedContext(): LoadedInstructions {
    return this.instructions?.snapshot() ?? { files: [], notices: [] };
  }

  /** Lists files another loader put into the context (MEMORY.md, recalled memories). */
  recordLoaded(files: readonly LoadedFile[]): void {
    this.instructions?.addLoaded(files);
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  /** The transcript so far (read-only: it changes only through the conversation). */
  get items(): readonly TranscriptItem[] {
    return this.conversation.items;
  }

  /** What this agent cost, with its sub-agents. */
  get cost(): CostTracker {
    return this.conversation.cost;
  }

  /** What this agent's own requests cost. */
  get ownCost(): CostTracker {
    return this.conversation.ownCost;
  }

  get agentId(): string {
    return this.options.agentId ?? this.options.sessionId;
  }

  /** Shows a note in this run's transcript without saving it (a repaired file, an internal error). */
  showNotice(item: NoticeItem): void {
    this.conversation.show(item);
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts a new session file. */
  start(createdAt = now(), agent?: Extract<TranscriptLine, { type: 'session' }>['agent']): void {
    this.conversation.appendLine({
      type: 'session',
      version: 1,
      sessionId: this.sessionId,
      projectPath: this.options.projectRoot,
      createdAt,
      model: this.model,
      ...(agent ? { agent } : {}),
    });
  }

  /** The usage of a descendant that runs outside a tool call (a background agent): part of the total. */
  absorb(e: Extract<LoopEvent, { type: 'usage' }>): void {
    this.conversation.addNestedUsage(usageReport(e));
    if (!this.running) this.conversation.saveCost();
  }

  /**
   * Takes up a session from its transcript lines: items, context window (with collapses and
   * compactions replayed) and the cost snapshot saved for this session id. Tool calls left without a
   * result are closed as interrupted.
   */
  resume(lines: readonly TranscriptLine[]): void {
    this.model = this.conversation.resume(lines) ?? this.model;
    // The main agent's total holds its sub-agents' too: what they spent after the last snapshot
    // (a crash mid-turn) is in their own transcripts' usage lines.
    if (this.agentId === this.options.sessionId) {
      const since = lastSnapshotAt(lines, this.options.sessionId);
      for (const u of subagentUsageLines(this.options.sessionDir))
        if (since === null || u.at > since) this.conversation.cost.addLine(u);
    }
    // A reply the app died in comes back with what had arrived, marked interrupted, not dropped.
    for (const reply of interruptedReplies(lines)) this.conversation.record(reply);
    this.conversation.closeDangling();
    if (turnUnfinished(lines)) {
      this.record(notice('warning', INTERRUPTED_BY_EXIT, 'interrupted_by_exit'));
      this.conversation.appendLine({ type: 'turn', phase: 'end', at: now() });
    }
  }

  setModel(model: string): void {
    this.model = model;
    this.conversation.appendLine({ type: 'model', model, at: now() });
  }

  /** Changes the permission mode and its gate; takes effect from the next turn. */
  setPermissions(mode: PermissionMode, gate: PermissionGate): void {
    this.options.permissionMode = mode;
    this.options.gate = gate;
  }

  /**
   * Takes a message and everything after it out of this idle session's conversation (a rewind);
   * `line` is the rewind's `cut` line, written here so the file says the same.
   */
  cut(line: Extract<TranscriptLine, { type: 'cut' }>): void {
    if (this.running) throw new Error('This session is running a turn; stop it before rewinding.');
    if (!this.conversation.cut(line)) throw new Error('That message is not in this session any more.');
  }

  /** Writes a line that is not an item (title, mode) to the session's transcript. */
  appendLine(line: TranscriptLine): void {
    this.conversation.appendLine(line);
  }

  /** Ends the session: background tasks are stopped, the transcript file closed. */
  async close(): Promise<void> {
    // The first turn's memory upkeep (the session counted for autoDream, maybe a dream task started)
    // runs beside the turn; a `-p` run can end before it has written its count, and the process
    // exits with it. Waited for before the tasks are killed, so a dream it starts is stopped too.
    await this.options.recall?.firstTurn;
    await this.tasks.killAll();
    this.conversation.close();
  }

  /** The directory the next command starts in. */
  get workingDirectory(): string {
    return this.cwd;
  }

  /** Stops the running turn: the request and the tools are aborted; the turn ends as `aborted`. */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }

  /** How full the context is: tokens of the model's window, and where autocompact starts (the status bar's meter). */
  get contextMeter(): ContextMeter {
    return this.compaction.auto.meter(this.conversation.context, this.model);
  }

  /** The conversation the next request would carry (for tests and diagnostics). */
  get contextWindow(): readonly MessageItem[] {
    return this.conversation.context;
  }

  /**
   * Runs one user turn; yields everything as it happens; returns the turn's result. `/compact
   * [instructions]` compacts the conversation instead of asking the model.
   */
  submit(
    prompt: string | ContentBlock[],
    options: { signal?: AbortSignal; tokenBudget?: number } = {},
  ): AsyncGenerator<EngineEvent, TurnResult> {
    const command = typeof prompt === 'string' ? parseCompactCommand(prompt) : null;
    if (command) return this.compact(command.instructions, options);
    return this.turn(prompt, options);
  }

  /**
   * Summarizes the whole conversation (with the person's instructions, if any) and continues from the
   * summary alone. The transcript keeps everything; the compaction is recorded for resume.
   */
  async *compact(
    instructions: string | undefined,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<EngineEvent, TurnResult> {
    if (this.running) throw new Error('This session is already running a turn.');
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort();
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    this.running = abort;
    const started = performance.now();
    const apiBefore = this.cost.apiDurationMs;
    const fold = new TurnFold(this.conversation);
    let outcome: { ok: boolean; detail: string };
    this.conversation.appendLine({ type: 'turn', phase: 'start', at: now() });
    try {
      const steps = manualCompact({
        client: this.options.models.clientFor(this.model),
        model: this.model,
        messages: this.conversation.context,
        signal: abort.signal,
        instructions,
        budget: this.options.budget,
        hooks: this.compaction.auto.hooks,
        // The last turn's prompt and the tools, so the summary reads the conversation from the cache.
        prefix: {
          systemPrompt: this.lastSystemPrompt ?? this.systemPromptWith(),
          tools: this.options.gate.filterTools(this.tools()),
          view: (m) => this.compaction.microcompact.view(m),
        },
        usageOf: (message, durationMs) => ({
          type: 'usage',
          model: message.model ?? this.model,
          apiId: message.id,
          usage: message.usage,
          cacheWrite1hTokens: message.cacheWrite1hTokens,
          webSearchRequests: message.webSearchRequests,
          durationMs,
        }),
      });
      for (;;) {
        const next = await steps.next();
        if (next.done) {
          outcome = next.value;
          break;
        }
        fold.apply(next.value);
        yield next.value;
        const note = this.noteFor(next.value);
        if (note) {
          this.record(note);
          yield { type: 'item', item: note };
        }
      }
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort);
      this.conversation.appendLine({ type: 'turn', phase: 'end', at: now() });
      this.running = null;
    }
    this.conversation.saveCost();
    const error = outcome.ok ? null : { code: 'compact_failed', status: null, message: outcome.detail };
    return {
      sessionId: this.sessionId,
      terminal: error
        ? { reason: 'error', detail: outcome.detail, error }
        : { reason: 'completed', detail: outcome.detail },
      text: outcome.detail,
      numTurns: 0,
      durationMs: Math.round(performance.now() - started),
      durationApiMs: Math.round(this.cost.apiDurationMs - apiBefore),
      usage: fold.usage,
      permissionDenials: [],
      error,
    };
  }

  /** Whether the last turn failed or was cut off, so {@link retry} has something to ask again. */
  get canRetry(): boolean {
    if (this.running) return false;
    const context = this.conversation.context;
    const drop = new Set(failedTail(context).map((m) => m.id));
    return context.filter((m) => !drop.has(m.id)).at(-1)?.role === 'user';
  }

  /**
   * Asks again after a failed or cut-off turn, without a new message from the person: a reply left
   * unfinished is taken out of the context (it stays in the transcript) and the model answers the
   * person's message, or carries on from the last tool results, afresh.
   */
  retry(
    options: { signal?: AbortSignal; tokenBudget?: number } = {},
  ): AsyncGenerator<EngineEvent, TurnResult> {
    if (this.running) throw new Error('This session is already running a turn.');
    if (!this.canRetry) throw new Error('There is nothing to retry: the last reply finished.');
    this.conversation.rewind(failedTail(this.conversation.context));
    return this.turn(null, options);
  }

  private async *turn(
    prompt: string | ContentBlock[] | null,
    options: { signal?: AbortSignal; tokenBudget?: number },
  ): AsyncGenerator<EngineEvent, TurnResult> {
    if (this.running) throw new Error('This session is already running a turn.');
    let hookContext: string | null = null;
    const asking = performance.now();
    // No UserPromptSubmit hook: null at once, and the prompt is recorded without waiting.
    const asked =
      prompt !== null && this.options.onPromptSubmit
        ? this.options.onPromptSubmit(
            typeof prompt === 'string'
              ? prompt
              : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('\n'),
            options.signal ?? new AbortController().signal,
          )
        : null;
    if (asked !== null) {
      const answer = await asked;
      yield* this.hookNotes();
      for (const message of answer.messages) {
        const note = notice('warning', message, 'hook');
        this.record(note);
        yield { type: 'item', item: note };
      }
      if (answer.blocked !== null) {
        const detail = `A UserPromptSubmit hook blocked the prompt: ${answer.blocked}`;
        const note = notice('warning', detail, 'hook');
        this.record(note);
        yield { type: 'item', item: note };
        return {
          sessionId: this.sessionId,
          terminal: { reason: 'completed', detail },
          text: '',
          numTurns: 0,
          durationMs: Math.round(performance.now() - asking),
          durationApiMs: 0,
          usage: new TurnFold(this.conversation).usage,
          permissionDenials: [],
          error: null,
        };
      }
      hookContext = answer.context;
    }
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort();
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    this.running = abort;
    // The long-lived sandboxed shell serves this submit's commands and ends with it (shell-executor.ts).
    const letGoOfShell = this.shell.hold?.();
    const started = performance.now();
    const apiBefore = this.cost.apiDurationMs;
    const fold = new TurnFold(this.conversation);
    const partial = new PartialReplyWriter((line) => this.conversation.appendLine(line));
    let terminal: Terminal | null = null;
    this.conversation.appendLine({ type: 'turn', phase: 'start', at: now() });

    if (prompt !== null) {
      const userMessage: MessageItem = {
        kind: 'message',
        id: randomUUID(),
        role: 'user',
        origin: 'user',
        content: typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt,
        createdAt: now(),
        status: 'complete',
      };
      this.record(userMessage);
      yield { type: 'item', item: userMessage };
      const today = dayOf(this.now());
      if (today !== this.announcedDay) {
        this.announcedDay = today;
        const note: MessageItem = {
          kind: 'message',
          id: randomUUID(),
          role: 'user',
          origin: 'nudge',
          content: [{ type: 'text', text: dateChangeNote(today) }],
          createdAt: now(),
          status: 'complete',
        };
        this.record(note);
        yield { type: 'item', item: note };
      }
      if (hookContext !== null) {
        const note: MessageItem = {
          kind: 'message',
          id: randomUUID(),
          role: 'user',
          origin: 'nudge',
          content: [{ type: 'text', text: hookContext }],
          createdAt: now(),
          status: 'complete',
        };
        this.record(note);
        yield { type: 'item', item: note };
      }
    }

    const toolUseContext: ToolUseContext = {
      toolUseId: '',
      cwd: this.cwd,
      projectRoot: this.options.projectRoot,
      sessionDir: this.options.sessionDir,
      abortSignal: abort.signal,
      permissionMode: this.options.permissionMode,
      readFileState: this.readFileState,
      fileHistory: this.fileHistory,
      todos: this.todos,
      env: this.options.toolEnv,
      shell: this.shell,
      tasks: this.tasks,
      agentId: this.agentId,
      ...(this.options.agents ? { agents: this.options.agents } : {}),
      ...(this.options.team ? { team: this.options.team } : {}),
      ...(this.instructions ? { instructionsFor: this.instructionsFor } : {}),
      sideModel: this.sideModel(),
    };
    // Instruction files are re-read each turn: the person may have edited one since the last.
    const instructions = this.instructions ? await this.instructions.reload() : undefined;
    for (const text of instructions?.notices ?? []) {
      if (this.shownInstructionNotices.has(text)) continue;
      this.shownInstructionNotices.add(text);
      const note = notice('warning', text, 'instructions');
      this.showNotice(note);
      yield { type: 'item', item: note };
    }
    // Auto memory: the directory and MEMORY.md, read at the session's first turn (memory-prompt.ts).
    const memory = this.options.memoryPrompt?.section();
    if (memory?.loaded) this.recordLoaded([memory.loaded]);
    // Recall: memories picked for this message ride with it as a user-role note, not in the system
    // prompt, so the prompt cache holds. A failing selector gives no note; the turn goes on. At a
    // reached budget there is no selector call (the turn's own request pauses or stops there).
    if (prompt !== null && this.options.recall && (await this.sideRequestsAllowed())) {
      const recalled = await this.options.recall.noteFor({
        prompt,
        models: this.options.models,
        sessionModel: this.model,
        toolsInUse: this.tools().map((t) => t.name),
        signal: abort.signal,
        tasks: this.tasks,
        onUsage: (report) => this.addSideUsage(report),
        context: this.conversation.context,
      });
      if (recalled) {
        this.recordLoaded(this.options.recall.loadedFiles());
        this.record(recalled);
        yield { type: 'item', item: recalled };
      }
    }
    this.git = await this.gitSnapshot;
    const systemPrompt = this.systemPromptWith(instructions, memory?.section);
    this.lastSystemPrompt = systemPrompt;
    const loop = queryLoop({
      messages: [...this.conversation.context],
      systemPrompt,
      tools: this.tools(),
      toolUseContext,
      gate: this.options.gate,
      models: this.options.models,
      model: this.model,
      fallbackModel: this.options.fallbackModel,
      signal: abort.signal,
      maxTurns: this.options.maxTurns,
      maxOutputTokens: this.options.maxOutputTokens,
      maxRetries: this.options.maxRetries,
      tokenBudget: options.tokenBudget,
      onStop: this.options.onStop,
      sleep: this.options.sleep,
      budget: this.options.budget,
      compaction: this.compaction,
    });

    try {
      for (;;) {
        const next = await loop.next();
        if (next.done) {
          terminal = next.value;
          break;
        }
        const e = next.value;
        partial.apply(e);
        fold.apply(e);
        if (fold.cwd !== null) this.cwd = fold.cwd;
        yield e;
        const note = this.noteFor(e);
        if (note) {
          this.record(note);
          yield { type: 'item', item: note };
        }
        yield* this.hookNotes();
      }
      // The last Stop hooks ran after the loop's last event.
      yield* this.hookNotes();
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort);
      if (!terminal) {
        // The consumer closed us early: stop everything and leave a consistent transcript.
        abort.abort();
        await loop.return({ reason: 'aborted', detail: 'Closed by the caller.' });
        const partial = fold.interruptedMessage();
        if (partial) this.record(partial);
        // No one is listening any more: close the transcript here, without yielding.
        this.conversation.closeDangling();
        this.conversation.saveCost();
      }
      partial.close();
      this.conversation.appendLine({ type: 'turn', phase: 'end', at: now() });
      this.running = null;
      letGoOfShell?.();
    }
    const closing = this.conversation.closeDangling();
    if (closing) yield { type: 'item', item: closing };
    this.conversation.saveCost();
    return {
      sessionId: this.sessionId,
      terminal,
      text: fold.lastText,
      numTurns: fold.numTurns,
      durationMs: Math.round(performance.now() - started),
      durationApiMs: Math.round(this.cost.apiDurationMs - apiBefore),
      usage: fold.usage,
      permissionDenials: fold.denials,
      error: fold.error,
    };
  }

  /**
   * The system prompt. The directory is the one the session started in, not where a `cd` left the
   * shell, and the date the session's first: it is the cached prefix and must not change between turns
   * (the model saw its own `cd`).
   */
  private systemPromptWith(instructions?: LoadedInstructions, memory?: string | null): string {
    return buildSystemPrompt({
      cwd: this.options.cwd,
      projectRoot: this.options.projectRoot,
      platform: this.options.platform ?? process.platform,
      date: this.sessionDate,
      append: this.options.appendSystemPrompt,
      instructions,
      memory,
      git: this.git,
      ...(this.options.systemPrompt !== undefined ? { base: this.options.systemPrompt } : {}),
    });
  }

  private now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  /** For Read: the instructions a file brings into play, as text for its result. */
  private readonly instructionsFor = async (file: string): Promise<string | null> => {
    const files = (await this.instructions?.forRead(file)) ?? [];
    return renderAttachment(files);
  };

  /** Tools' own model requests (WebFetch's reader, WebSearch), counted and budgeted as the session's. */
  private sideModel(): SideModel {
    return {
      // The demo model has no small model beside it (as recall): its side requests stay on it.
      smallModel: this.model === DEMO_MODEL_ID ? this.model : smallModelFrom(process.env),
      request: async (request, signal, onEvent) => {
        // At a reached spending limit a tool makes no model request (the turn's own request pauses there).
        if (!(await this.sideRequestsAllowed()))
          throw new Error(
            'the session has reached its spending limit, so no model request is made for this tool',
          );
        return sideRequest(
          this.options.models.clientFor(request.model),
          request,
          signal,
          (report) => this.addSideUsage(report),
          'other',
          onEvent,
        );
      },
    };
  }

  /** The tools of this turn: the fixed ones, then (same order every time, for the cache) the extra. */
  private tools(): readonly AnyTool[] {
    const extra = this.options.extraTools?.() ?? [];
    return extra.length === 0 ? this.options.tools : [...this.options.tools, ...extra];
  }

  /** A side request of this agent (the memory selector, autoDream): the session pays for it. */
  private addSideUsage(report: UsageReport): void {
    this.conversation.addUsage(report);
    // Side requests spend from the session's budget like its turns.
    this.options.budget?.recordUsage(report);
    if (!this.running) this.conversation.saveCost();
  }

  private async sideRequestsAllowed(): Promise<boolean> {
    // A budget that cannot tell (its spend unreadable) leaves the call to the turn's own check.
    return (await this.options.budget?.sideRequestsAllowed?.().catch(() => true)) ?? true;
  }

  /** Hook runs since the last look, recorded and shown as notes. */
  private *hookNotes(): Generator<EngineEvent> {
    for (const note of this.options.hookNotes?.drain() ?? []) {
      this.record(note);
      yield { type: 'item', item: note };
    }
  }

  private record(item: TranscriptItem): void {
    this.conversation.record(item);
  }

  private noteFor(e: LoopEvent): NoticeItem | null {
    switch (e.type) {
      case 'transition': {
        const text = describeTransition(e);
        return text ? notice('info', text, e.transition.reason) : null;
      }
      case 'retry':
        return notice(
          'info',
          `${e.error.message.split('.')[0] ?? 'API error'}; retrying in ${e.delayMs < 1000 ? `${Math.round(e.delayMs)} ms` : `${(e.delayMs / 1000).toFixed(1)} s`} (attempt ${e.attempt} of ${e.maxRetries}).`,
          'retry',
        );
      case 'fallback':
        return notice(
          'warning',
          `${e.from} is overloaded; switched to the fallback model ${e.to} for this turn.`,
          'fallback',
        );
      case 'error':
        return notice('error', e.error.message, e.error.code);
      case 'compaction':
        return {
          ...notice(
            e.ok ? 'info' : 'warning',
            e.detail,
            e.trigger === 'manual'
              ? e.ok
                ? 'compact'
                : 'compact_failed'
              : e.ok
                ? e.trigger === 'snip'
                  ? 'snip'
                  : 'autocompact'
                : e.breakerOpen
                  ? 'autocompact_off'
                  : 'autocompact_failed',
          ),
          compaction: {
            trigger: e.trigger,
            ok: e.ok,
            breakerOpen: e.breakerOpen,
            summarized: e.summarized ?? null,
            summary: e.summary ? messageText(e.summary.content) : null,
          },
        };
      default:
        return null;
    }
  }
}

/** When this session's last cost snapshot was written (null: none): later usage is not in it. */
function lastSnapshotAt(lines: readonly TranscriptLine[], sessionId: string): string | null {
  const last = lines.findLast((l) => l.type === 'cost' && l.snapshot.sessionId === sessionId);
  return last?.type === 'cost' ? last.at : null;
}
