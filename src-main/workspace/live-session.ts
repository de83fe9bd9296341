import { randomUUID } from 'node:crypto';
import type { NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { PermissionLogEntry, PermissionMode } from '@shared/domain/permissions';
import type { SessionActivity, SessionSummary } from '@shared/domain/session';
import type { QueryEngine } from '../harness/engine/query-engine';
import type { AgentEvent } from '../harness/events/agent-event';
import type { AgentRuntime } from '../harness/runtime/types';
import { AgentStream } from './agent-stream';
import { AgentTracker } from './agent-tracker';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import { autoTitle, costKindOf, lastActivity, type SessionMeta } from './session-meta';

const now = () => new Date().toISOString();

export interface LiveSessionInit {
  meta: SessionMeta;
  projectId: string;
  file: string;
  engine: QueryEngine;
  runtime: AgentRuntime;
  /** Controllers of the session's running sub-agents, to stop one alone. */
  agentStops: Map<string, AbortController>;
  /** Whether a sub-agent or worker has a permission request waiting. */
  agentWaiting: (agentId: string) => boolean;
  hub: EventHub;
  logger: Logger;
  /** Builds the permission gate for a mode (sessions can change mode between turns). */
  applyMode: (engine: QueryEngine, mode: PermissionMode) => void;
  /** Called after a turn ends and after renames, so the index stays fresh. */
  onChanged: (session: LiveSession) => void;
  /** A permission request of this session is waiting for a person. */
  waiting: () => boolean;
  /** The permission log so far (from the transcript). */
  log: PermissionLogEntry[];
  /** A coordinator session (runs a team). */
  coordinator?: boolean;
}

/**
 * A session in memory: its QueryEngine and what the workspace shows of it. Runs turns in the
 * background and turns engine events into contract events: items appended, updated and withdrawn,
 * batched text and tool output, and the summary (activity, usage, cost) as it changes.
 */
export class LiveSession {
  readonly id: string;
  readonly projectId: string;
  readonly file: string;
  readonly engine: QueryEngine;
  title: string;
  titled: boolean;
  readonly createdAt: string;
  permissionMode: PermissionMode;
  activity: SessionActivity = 'idle';
  /** Sent to the background: no tab shows it; it keeps working and the person is told when it ends. */
  background = false;
  lastError: string | null = null;
  private turn: Promise<void> | null = null;
  /** The main agent's events as contract events. */
  private readonly main: AgentStream;
  /** The session's sub-agents and workers. */
  readonly agents: AgentTracker;

  constructor(private readonly init: LiveSessionInit) {
    this.id = init.meta.id;
    this.projectId = init.projectId;
    this.file = init.file;
    this.engine = init.engine;
    this.title = init.meta.title;
    this.titled = init.meta.titled;
    this.createdAt = init.meta.createdAt;
    this.permissionMode = init.meta.permissionMode;
    this.main = new AgentStream(init.hub, this.id, this.id, false);
    this.agents = new AgentTracker(init.hub, this.id, init.runtime.sessionDir, init.agentWaiting);
  }

  /** The session's own folder (large outputs, sub-agents, file history). */
  get sessionDir(): string {
    return this.init.runtime.sessionDir;
  }

  get busy(): boolean {
    return this.turn !== null;
  }

  /** What the index keeps of this session. */
  meta(): SessionMeta {
    const messages = this.engine.items.filter(
      (i) =>
        i.kind === 'message' && (i.role === 'assistant' || i.origin === undefined || i.origin === 'user'),
    );
    return {
      id: this.id,
      title: this.title,
      titled: this.titled,
      model: this.engine.model,
      permissionMode: this.permissionMode,
      createdAt: this.createdAt,
      updatedAt: lastActivity(this.engine.items, this.createdAt),
      messageCount: messages.length,
      usage: this.engine.cost.totalUsage(),
      costUsd: this.engine.cost.totalCostUsd,
      costKind: costKindOf(this.engine.cost, this.engine.model),
      coordinator: this.coordinator,
      ...(this.init.meta.worktree ? { worktree: this.init.meta.worktree } : {}),
    };
  }

  summary(): SessionSummary {
    const { titled: _titled, ...meta } = this.meta();
    return {
      ...meta,
      projectId: this.projectId,
      activity: this.activity,
      waitingForUser: this.init.waiting(),
      lastError: this.lastError,
      coordinator: this.coordinator,
      background: this.background,
      // Not `busy`: the summary sent as a turn ends is built before the turn is let go.
      canRetry: this.engine.canRetry,
      context: this.engine.contextMeter,
    };
  }

  /** Whether this session runs a team (its main agent is a coordinator). */
  get coordinator(): boolean {
    return this.init.coordinator ?? false;
  }

  setBackground(background: boolean): void {
    if (this.background === background) return;
    this.background = background;
    this.changed();
  }

  /** Every permission decision of this session, oldest first. */
  get permissionLog(): readonly PermissionLogEntry[] {
    return this.init.log;
  }

  /** Records a decision: kept in memory, appended to the transcript, shown live. */
  recordDecision(entry: PermissionLogEntry): void {
    this.init.log.push(entry);
    this.engine.appendLine({ type: 'permission', entry });
    this.init.hub.emit('permissions.logged', { sessionId: this.id, entry });
  }

  /** The waiting state changed (a request arrived or was answered). */
  waitingChanged(): void {
    this.agents.refreshWaiting();
    this.changed();
  }

  transcript(): TranscriptItem[] {
    return this.main.transcript(this.engine.items);
  }

  /**
   * Starts a turn in the background. `turnModel` (a slash command's `model`) is the model of this
   * turn only: the session's own comes back when the turn ends, however it ends.
   */
  send(text: string, turnModel?: string): { messageId: string } {
    const own = this.engine.model;
    const swapped = turnModel !== undefined && turnModel !== own;
    if (swapped) this.setModel(turnModel);
    const turn = this.init.runtime.run(text);
    this.activity = 'thinking';
    this.lastError = null;
    this.turn = this.consume(turn).finally(() => {
      this.turn = null;
      if (swapped && this.engine.model !== own) this.setModel(own);
    });
    // The generator's first step (run synchronously by consume) records the person's message.
    const first = this.engine.items.at(-1);
    const messageId = first?.kind === 'message' ? first.id : '';
    if (!this.titled) this.title = autoTitle(this.engine.items) ?? this.title;
    this.changed();
    return { messageId };
  }

  /**
   * Asks again after a failed or cut-off turn (an API error, a reply the app died in): the
   * person's message is not repeated in the transcript. False when there is nothing to retry.
   */
  retry(): boolean {
    if (this.busy || !this.engine.canRetry) return false;
    const turn = this.init.runtime.retry();
    this.activity = 'thinking';
    this.lastError = null;
    this.turn = this.consume(turn).finally(() => {
      this.turn = null;
    });
    this.changed();
    return true;
  }

  stop(): boolean {
    return this.engine.cancel();
  }

  /** Shows a note in the session (not saved): a broken agent file, say. */
  notify(level: NoticeItem['level'], text: string, code: string): void {
    const notice: NoticeItem = { kind: 'notice', id: randomUUID(), level, text, code, createdAt: now() };
    this.engine.showNotice(notice);
    this.init.hub.emit('transcript.appended', { sessionId: this.id, agentId: this.id, item: notice });
  }

  /** Stops one sub-agent or worker (and those it started); the rest of the session carries on. */
  stopAgent(agentId: string): boolean {
    const control = this.init.agentStops.get(agentId);
    if (!control || control.signal.aborted) return false;
    control.abort();
    return true;
  }

  /** Waits for the running turn (if any) to end. */
  async settled(): Promise<void> {
    await this.turn;
  }

  rename(title: string): void {
    this.title = title;
    this.titled = true;
    this.writeLine({ type: 'title', title, at: now() });
    this.changed();
    this.init.onChanged(this);
  }

  setModel(model: string): void {
    this.engine.setModel(model);
    this.changed();
    this.init.onChanged(this);
  }

  setPermissionMode(mode: PermissionMode): void {
    this.permissionMode = mode;
    this.init.applyMode(this.engine, mode);
    this.writeLine({ type: 'mode', mode, at: now() });
    this.changed();
    this.init.onChanged(this);
  }

  private writeLine(line: Parameters<QueryEngine['appendLine']>[0]): void {
    this.engine.appendLine(line);
  }

  private async consume(turn: AsyncGenerator<AgentEvent, unknown>): Promise<void> {
    try {
      for (;;) {
        const next = await turn.next();
        if (next.done) break;
        this.onEvent(next.value);
      }
    } catch (error) {
      this.init.logger.error(`Session ${this.id}: the turn failed unexpectedly`, error);
      this.lastError = `Internal error: ${(error as Error).message}`;
      const notice: NoticeItem = {
        kind: 'notice',
        id: `internal-${Date.now()}`,
        level: 'error',
        text: this.lastError,
        createdAt: now(),
        code: 'internal',
      };
      this.engine.showNotice(notice);
      this.init.hub.emit('transcript.appended', { sessionId: this.id, agentId: this.id, item: notice });
    } finally {
      this.main.streaming = null;
      this.activity = this.lastError !== null ? 'error' : 'idle';
      this.changed();
      this.init.onChanged(this);
    }
  }

  /**
   * One event of this session's agent tree: the main agent's go to its stream, the others' to the
   * tracker of sub-agents and workers (their cost also changes the session's total).
   */
  onEvent(e: AgentEvent): void {
    if (e.agentId !== this.id) {
      this.agents.apply(e);
      if (e.type === 'usage') this.changed();
      return;
    }
    if (e.type === 'agent_started' || e.type === 'agent_ended') return;
    if (e.type === 'item' && e.item.kind === 'notice' && e.item.level === 'error')
      this.lastError = e.item.text;
    // A message recorded after send() returned (a UserPromptSubmit hook ran first) still names the
    // session, as one recorded at once does in send().
    let retitled = false;
    if (!this.titled && e.type === 'item' && e.item.kind === 'message' && e.item.role === 'user') {
      const title = autoTitle(this.engine.items) ?? this.title;
      retitled = title !== this.title;
      this.title = title;
    }
    const activity = this.main.handle(e);
    if (retitled) this.changed();
    if (activity !== null) this.setActivity(activity);
    else if (e.type === 'usage') this.changed();
  }

  private setActivity(activity: SessionActivity): void {
    if (this.activity === activity) return;
    this.activity = activity;
    this.changed();
  }

  private changed(): void {
    this.init.hub.emit('sessions.changed', { session: this.summary() });
  }
}
