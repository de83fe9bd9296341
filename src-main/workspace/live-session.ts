import type { ContentBlock, MessageItem, NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { PermissionLogEntry, PermissionMode } from '@shared/domain/permissions';
import type { SessionActivity, SessionSummary } from '@shared/domain/session';
import type { EngineEvent, QueryEngine } from '../harness/engine/query-engine';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import { autoTitle, costKindOf, lastActivity, type SessionMeta } from './session-meta';

const now = () => new Date().toISOString();

export interface LiveSessionInit {
  meta: SessionMeta;
  projectId: string;
  file: string;
  engine: QueryEngine;
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
  lastError: string | null = null;
  private turn: Promise<void> | null = null;
  private streaming: MessageItem | null = null;

  constructor(private readonly init: LiveSessionInit) {
    this.id = init.meta.id;
    this.projectId = init.projectId;
    this.file = init.file;
    this.engine = init.engine;
    this.title = init.meta.title;
    this.titled = init.meta.titled;
    this.createdAt = init.meta.createdAt;
    this.permissionMode = init.meta.permissionMode;
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
    };
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
    this.changed();
  }

  transcript(): TranscriptItem[] {
    return this.streaming ? [...this.engine.items, this.streaming] : [...this.engine.items];
  }

  /** Starts a turn in the background. */
  send(text: string): { messageId: string } {
    const turn = this.engine.submit(text);
    this.activity = 'thinking';
    this.lastError = null;
    this.turn = this.consume(turn).finally(() => {
      this.turn = null;
    });
    // The generator's first step (run synchronously by consume) records the person's message.
    const first = this.engine.items.at(-1);
    const messageId = first?.kind === 'message' ? first.id : '';
    if (!this.titled) this.title = autoTitle(this.engine.items) ?? this.title;
    this.changed();
    return { messageId };
  }

  stop(): boolean {
    return this.engine.cancel();
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

  private async consume(turn: AsyncGenerator<EngineEvent, unknown>): Promise<void> {
    const hub = this.init.hub;
    try {
      for (;;) {
        const next = await turn.next();
        if (next.done) break;
        const e = next.value;
        switch (e.type) {
          case 'item':
            hub.emit('transcript.appended', { sessionId: this.id, item: e.item });
            if (e.item.kind === 'notice' && e.item.level === 'error') this.lastError = e.item.text;
            break;
          case 'assistant_start':
            this.streaming = {
              kind: 'message',
              id: e.itemId,
              role: 'assistant',
              content: [],
              createdAt: now(),
              status: 'streaming',
              model: e.model,
            };
            hub.emit('transcript.appended', { sessionId: this.id, item: this.streaming });
            this.setActivity('streaming');
            break;
          case 'text_delta':
            if (this.streaming?.id === e.itemId) appendText(this.streaming.content, e.index, e.text);
            hub.delta({ sessionId: this.id, itemId: e.itemId, index: e.index, text: e.text });
            break;
          case 'tool_start':
            if (this.streaming?.id === e.itemId) {
              this.streaming.content.push(e.block);
              hub.emit('transcript.updated', { sessionId: this.id, item: structuredClone(this.streaming) });
            }
            break;
          case 'tool_progress':
            hub.toolProgress({ sessionId: this.id, toolUseId: e.toolUseId, text: e.text });
            break;
          case 'tool_result':
            hub.emit('tool.result', { sessionId: this.id, block: e.block });
            break;
          case 'tombstone':
            if (this.streaming?.id === e.itemId) this.streaming = null;
            hub.emit('transcript.removed', { sessionId: this.id, itemId: e.itemId });
            this.setActivity('thinking');
            break;
          case 'assistant':
            this.streaming = null;
            hub.emit('transcript.updated', { sessionId: this.id, item: e.item });
            this.setActivity(e.item.content.some((b) => b.type === 'tool_use') ? 'tools' : 'thinking');
            break;
          case 'user':
            hub.emit('transcript.appended', { sessionId: this.id, item: e.item });
            this.setActivity('thinking');
            break;
          case 'usage':
            this.changed();
            break;
          case 'retry':
          case 'fallback':
            this.setActivity('thinking');
            break;
          default:
            break;
        }
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
      hub.emit('transcript.appended', { sessionId: this.id, item: notice });
    } finally {
      this.streaming = null;
      this.activity = this.lastError !== null ? 'error' : 'idle';
      this.changed();
      this.init.onChanged(this);
    }
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

function appendText(content: ContentBlock[], index: number, text: string): void {
  const block = content[index];
  content[index] = { type: 'text', text: (block?.type === 'text' ? block.text : '') + text };
  for (let i = 0; i < content.length; i++) content[i] ??= { type: 'text', text: '' };
}
