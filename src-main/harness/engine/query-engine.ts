import type { ContentBlock, MessageItem, NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { PermissionMode } from '@shared/domain/permissions';
import { loadBashParser } from '../bash/tree-sitter';
import { dateChangeNote, dayOf } from '../context/date-change';
import type { CostTracker } from '../cost/tracker';
import { Conversation } from './conversation';
import { usageReport } from './turn-fold';
import { PartialReplyWriter } from './partial-reply';
import { failedTail } from '../session/interrupted-turn';
import { queryLoop } from '../loop/query-loop';
import { SessionCompaction } from '../loop/session-compaction';
import type { ContextMeter } from '../loop/autocompact';
import { parseCompactCommand } from '../loop/manual-compact';
import type { LoopEvent, Terminal } from '../loop/types';
import type { EngineEvent } from '../events/agent-event';
import type { PermissionGate } from '../permissions/gate';
import type { TranscriptLine } from '../session/transcript-file';
import type { AnyTool } from '../tools/tool';
import type { TaskManager } from '../tasks/task-manager';
import { SessionTools } from './session-tools';
import type { LoadedFile, LoadedInstructions } from '../memory/instructions/types';
import type { EngineOptions, TurnResult } from './engine-options';
import { resumeConversation } from './resume-session';
import { followLoop } from './follow-loop';
import { SessionPrompt } from './session-prompt';
import { SideRequests } from './side-requests';
import { RunningTurn } from './running-turn';
import { compactResult, compactSteps } from './compact-turn';
import { blockedResult, hookAnswerNotes, openingMessages, promptText } from './turn-opening';

// The engine's pieces live beside it (engine-options, engine-notes, session-prompt, side-requests,
// running-turn, compact-turn, turn-opening, turn-fold, conversation); its importers see one module.
export type { EngineOptions, TurnResult } from './engine-options';
export type { EngineEvent } from '../events/agent-event';
export { INTERRUPTED_BY_EXIT } from './engine-notes';

const now = () => new Date().toISOString();

/**
 * One session: multi-turn state, persistence, usage and cost, resume. It consumes `queryLoop` for
 * each user turn and appends every finished message to the session's JSONL as it happens.
 * Cancelling aborts the request and the tools; the transcript stays valid (interrupted tool calls
 * get results saying so).
 */
export class QueryEngine {
  private readonly conversation: Conversation;
  /** What the tools share across turns (files read, history, todos, shell, cwd, tasks). */
  private readonly session: SessionTools;
  private running: AbortController | null = null;
  /** The system prompt and what goes into it (instructions, memory, git status). */
  private readonly prompt: SessionPrompt;
  /** Model requests besides the turns' own, paid and budgeted as the session's. */
  private readonly side: SideRequests;
  /** The session's background tasks; they end with the session. */
  readonly tasks: TaskManager;
  model: string;

  private readonly options: EngineOptions;
  /** The last day the model was told of (the system prompt's, then each date-change note's). */
  private announcedDay: string;
  /** Microcompact's cleared results and autocompact's circuit breaker, kept across turns. */
  private readonly compaction: SessionCompaction;

  constructor(options: EngineOptions) {
    this.options = { ...options };
    this.model = options.model;
    this.compaction = new SessionCompaction(options.compaction);
    // The date the system prompt gives: the session's first, so the cached prefix (tools → system)
    // stays byte-identical for the whole session.
    const sessionDate = this.now();
    this.announcedDay = dayOf(sessionDate);
    this.prompt = new SessionPrompt({
      cwd: options.cwd,
      projectRoot: options.projectRoot,
      platform: options.platform ?? process.platform,
      date: sessionDate,
      append: options.appendSystemPrompt,
      base: options.systemPrompt,
      instructionRoots: options.instructionRoots,
      memoryPrompt: options.memoryPrompt,
    });
    // The Bash analysis decides which commands may run in parallel: have its parser ready early.
    loadBashParser().catch(() => undefined);
    this.conversation = new Conversation(
      options.agentId ?? options.sessionId,
      options.writer,
      options.sessionId,
    );
    this.side = new SideRequests(
      this.conversation,
      options.models,
      options.budget,
      () => this.running !== null,
    );
    this.session = new SessionTools(this.options);
    this.tasks = this.session.tasks;
  }

  /**
   * Every instruction file and memory in this session's context as of the last turn, in precedence
   * order, with the import that pulled each in (the memory browser's "Loaded in this session").
   */
  loadedContext(): LoadedInstructions {
    return this.prompt.loaded();
  }

  /** Lists files another loader put into the context (MEMORY.md, recalled memories). */
  recordLoaded(files: readonly LoadedFile[]): void {
    this.prompt.recordLoaded(files);
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
    this.model =
      resumeConversation(this.conversation, lines, {
        sessionId: this.options.sessionId,
        agentId: this.agentId,
        sessionDir: this.options.sessionDir,
      }) ?? this.model;
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
    return this.session.cwd;
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
    const turn = new RunningTurn(this.conversation, options.signal);
    this.running = turn.abort;
    let outcome: { ok: boolean; detail: string };
    turn.open();
    try {
      outcome = yield* compactSteps(
        {
          conversation: this.conversation,
          model: this.model,
          models: this.options.models,
          budget: this.options.budget,
          compaction: this.compaction,
          systemPrompt: this.prompt.forCompact(),
          tools: this.options.gate.filterTools(this.tools()),
          instructions,
          record: (item) => this.record(item),
        },
        turn,
      );
    } finally {
      turn.end();
      this.running = null;
    }
    this.conversation.saveCost();
    return compactResult(this.sessionId, turn, outcome);
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
        ? this.options.onPromptSubmit(promptText(prompt), options.signal ?? new AbortController().signal)
        : null;
    if (asked !== null) {
      const answer = await asked;
      yield* this.hookNotes();
      for (const note of hookAnswerNotes(answer)) yield this.kept(note);
      if (answer.blocked !== null)
        return blockedResult(this.sessionId, answer.blocked, performance.now() - asking);
      hookContext = answer.context;
    }
    const turn = new RunningTurn(this.conversation, options.signal);
    const { abort, fold } = turn;
    this.running = abort;
    // The long-lived sandboxed shell serves this submit's commands and ends with it (shell-executor.ts).
    const letGoOfShell = this.session.shell.hold?.();
    const partial = new PartialReplyWriter((line) => this.conversation.appendLine(line));
    turn.open();

    if (prompt !== null) {
      const today = dayOf(this.now());
      const dateChange = today !== this.announcedDay ? dateChangeNote(today) : null;
      this.announcedDay = today;
      for (const message of openingMessages(prompt, { dateChange, hookContext })) yield this.kept(message);
    }

    const toolUseContext = this.session.contextFor({
      signal: abort.signal,
      permissionMode: this.options.permissionMode,
      agentId: this.agentId,
      instructionsFor: this.prompt.instructionsFor,
      sideModel: this.side.sideModel(this.model),
    });
    // Instruction files are re-read each turn: the person may have edited one since the last.
    const context = await this.prompt.reload();
    for (const note of context.notices) {
      this.showNotice(note);
      yield { type: 'item', item: note };
    }
    // Recall: memories picked for this message ride with it as a user-role note, not in the system
    // prompt, so the prompt cache holds. A failing selector gives no note; the turn goes on. At a
    // reached budget there is no selector call (the turn's own request pauses or stops there).
    if (prompt !== null && this.options.recall && (await this.side.allowed())) {
      const recalled = await this.options.recall.noteFor({
        prompt,
        models: this.options.models,
        sessionModel: this.model,
        toolsInUse: this.tools().map((t) => t.name),
        signal: abort.signal,
        tasks: this.tasks,
        onUsage: (report) => this.side.addUsage(report),
        context: this.conversation.context,
      });
      if (recalled) {
        this.recordLoaded(this.options.recall.loadedFiles());
        yield this.kept(recalled);
      }
    }
    const loop = queryLoop({
      messages: [...this.conversation.context],
      systemPrompt: await this.prompt.forTurn(context),
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

    let terminal: Terminal;
    try {
      terminal = yield* followLoop(loop, {
        conversation: this.conversation,
        turn,
        partial,
        onCwd: (cwd) => (this.session.cwd = cwd),
        kept: (item) => this.kept(item),
        hookNotes: () => this.hookNotes(),
      });
    } finally {
      partial.close();
      turn.end();
      this.running = null;
      letGoOfShell?.();
    }
    const closing = this.conversation.closeDangling();
    if (closing) yield { type: 'item', item: closing };
    this.conversation.saveCost();
    return turn.result(this.sessionId, terminal, {
      text: fold.lastText,
      numTurns: fold.numTurns,
      permissionDenials: fold.denials,
      error: fold.error,
    });
  }

  private now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  /** The tools of this turn: the fixed ones, then (same order every time, for the cache) the extra. */
  private tools(): readonly AnyTool[] {
    const extra = this.options.extraTools?.() ?? [];
    return extra.length === 0 ? this.options.tools : [...this.options.tools, ...extra];
  }

  /** Hook runs since the last look, recorded and shown as notes. */
  private *hookNotes(): Generator<EngineEvent> {
    for (const note of this.options.hookNotes?.drain() ?? []) yield this.kept(note);
  }

  private record(item: TranscriptItem): void {
    this.conversation.record(item);
  }

  /** Records an item and gives the event that shows it. */
  private kept(item: TranscriptItem): EngineEvent {
    this.record(item);
    return { type: 'item', item };
  }
}
