import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MessageItem, NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { SessionSummary } from '@shared/domain/session';
import { streamReply, ReplyFailedError } from '../harness/engine/stream-reply';
import { describeApiError } from '../harness/model/api-errors';
import type { AccumulatedMessage } from '../harness/model/accumulate';
import type { ModelRouter } from '../harness/model/model-client';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import type { ProjectRegistry } from './projects';
import { autoTitle, recordFromLines, summarize, toApiMessages, type SessionRecord } from './session-record';
import { readTranscript } from '../harness/session/transcript-file';

export interface SessionManagerDeps {
  projectDir(projectId: string): string;
  projects: ProjectRegistry;
  hub: EventHub;
  models: ModelRouter;
  /** The model a new session gets when none is asked for. */
  defaultModel(): string;
  logger: Logger;
  maxTokens?: number;
}

const now = () => new Date().toISOString();

/**
 * Owns every session of every project opened in this process: loads them from their transcripts,
 * runs turns (several sessions stream at once), persists each finished message, and reports
 * everything through the EventHub.
 */
export class SessionManager {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly loadedProjects = new Set<string>();

  constructor(private readonly deps: SessionManagerDeps) {}

  /** Reads a project's transcripts once; later calls use memory. */
  private ensureLoaded(projectId: string): void {
    if (this.loadedProjects.has(projectId)) return;
    const project = this.deps.projects.get(projectId);
    const dir = this.deps.projectDir(projectId);
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const file = path.join(dir, name);
      try {
        const { lines, problems } = readTranscript(file);
        const record = recordFromLines(
          file,
          projectId,
          project.path,
          lines,
          statSync(file).mtime.toISOString(),
        );
        for (const problem of problems) {
          record.transcript.push(this.notice('warning', `Transcript: ${problem}`, 'transcript_repaired'));
        }
        this.sessions.set(record.id, record);
      } catch (error) {
        this.deps.logger.warn(`Skipping unreadable transcript ${file}: ${(error as Error).message}`);
      }
    }
    this.loadedProjects.add(projectId);
  }

  list(projectId: string): SessionSummary[] {
    this.ensureLoaded(projectId);
    return [...this.sessions.values()]
      .filter((s) => s.projectId === projectId)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .map(summarize);
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  private record(sessionId: string): SessionRecord {
    const record = this.sessions.get(sessionId);
    if (!record) throw new AppError('NOT_FOUND', `There is no session ${sessionId}.`);
    return record;
  }

  get(sessionId: string): { session: SessionSummary; transcript: TranscriptItem[] } {
    const record = this.record(sessionId);
    return { session: summarize(record), transcript: record.transcript };
  }

  create(projectId: string, model?: string): SessionSummary {
    this.ensureLoaded(projectId);
    const project = this.deps.projects.get(projectId);
    const id = randomUUID();
    const file = path.join(this.deps.projectDir(projectId), `${id}.jsonl`);
    const createdAt = now();
    const record = recordFromLines(file, projectId, project.path, [], createdAt);
    record.model = model ?? this.deps.defaultModel();
    record.writer.append({
      type: 'session',
      version: 1,
      sessionId: id,
      projectPath: project.path,
      createdAt,
      model: record.model,
    });
    this.sessions.set(id, record);
    return this.changed(record);
  }

  rename(sessionId: string, title: string): SessionSummary {
    const record = this.record(sessionId);
    record.title = title;
    record.titled = true;
    record.writer.append({ type: 'title', title, at: now() });
    return this.changed(record);
  }

  setModel(sessionId: string, model: string): SessionSummary {
    const record = this.record(sessionId);
    if (record.turn)
      throw new AppError('CONFLICT', 'The model cannot change while the session is working; stop it first.');
    record.model = model;
    record.writer.append({ type: 'model', model, at: now() });
    return this.changed(record);
  }

  /** Appends the user's message and starts the reply; returns at once. */
  send(sessionId: string, text: string): { messageId: string } {
    const record = this.record(sessionId);
    if (record.turn)
      throw new AppError('CONFLICT', 'This session is still answering; wait for it or stop it first.');
    const item: MessageItem = {
      kind: 'message',
      id: randomUUID(),
      role: 'user',
      content: [{ type: 'text', text }],
      createdAt: now(),
      status: 'complete',
    };
    this.persist(record, item);
    if (!record.titled) record.title = autoTitle(record.transcript) ?? record.title;
    record.activity = 'thinking';
    record.lastError = null;
    const abort = new AbortController();
    record.turn = { abort, done: this.runTurn(record, abort.signal) };
    this.changed(record);
    return { messageId: item.id };
  }

  stop(sessionId: string): { stopped: boolean } {
    const record = this.record(sessionId);
    if (!record.turn) return { stopped: false };
    record.turn.abort.abort();
    return { stopped: true };
  }

  /** Stops every running turn and waits until each has saved what it had. */
  async shutdown(): Promise<void> {
    const running = [...this.sessions.values()].flatMap((r) => (r.turn ? [r.turn] : []));
    for (const turn of running) turn.abort.abort();
    await Promise.allSettled(running.map((t) => t.done));
    for (const record of this.sessions.values()) record.writer.close();
  }

  private async runTurn(record: SessionRecord, signal: AbortSignal): Promise<void> {
    let item: MessageItem | null = null;
    const model = record.model;
    try {
      const message = await streamReply(
        this.deps.models.clientFor(model),
        { model, messages: toApiMessages(record.transcript), maxTokens: this.deps.maxTokens ?? 8192 },
        signal,
        {
          onStart: () => {
            item = {
              kind: 'message',
              id: randomUUID(),
              role: 'assistant',
              content: [],
              createdAt: now(),
              status: 'streaming',
              model,
            };
            record.transcript.push(item);
            record.activity = 'streaming';
            this.deps.hub.emit('transcript.appended', { sessionId: record.id, item: structuredClone(item) });
            this.changed(record);
          },
          onText: (index, text) => {
            if (item) this.deps.hub.delta({ sessionId: record.id, itemId: item.id, index, text });
          },
        },
      );
      this.finish(record, item, message, 'complete');
      record.activity = 'idle';
    } catch (error) {
      const partial = error instanceof ReplyFailedError ? error.partial : null;
      const cause = error instanceof ReplyFailedError ? error.cause : error;
      if (signal.aborted) {
        this.finish(record, item, partial, 'interrupted');
        record.activity = 'idle';
      } else {
        const described = describeApiError(cause);
        this.finish(record, item, partial, 'error');
        this.persist(record, this.notice('error', described.message, described.code));
        record.activity = 'error';
        record.lastError = described.message;
      }
    } finally {
      record.turn = null;
      this.changed(record);
    }
  }

  /** Gives a streamed message its final form, saves it and tells the UI; drops it if nothing arrived. */
  private finish(
    record: SessionRecord,
    item: MessageItem | null,
    message: AccumulatedMessage | null,
    status: MessageItem['status'],
  ): void {
    if (!item) return;
    const index = record.transcript.indexOf(item);
    const final: MessageItem = {
      ...item,
      content: message ? structuredClone(message.content) : item.content,
      status,
      stopReason: message?.stopReason ?? null,
    };
    if (message) final.usage = message.usage;
    record.transcript[index] = final;
    record.writer.append({ type: 'item', item: final });
    record.updatedAt = now();
    this.deps.hub.emit('transcript.updated', { sessionId: record.id, item: final });
  }

  private persist(record: SessionRecord, item: TranscriptItem): void {
    record.transcript.push(item);
    record.writer.append({ type: 'item', item });
    record.updatedAt = item.createdAt;
    this.deps.hub.emit('transcript.appended', { sessionId: record.id, item });
  }

  private notice(level: NoticeItem['level'], text: string, code: string): NoticeItem {
    return { kind: 'notice', id: randomUUID(), level, text, code, createdAt: now() };
  }

  private changed(record: SessionRecord): SessionSummary {
    const session = summarize(record);
    this.deps.hub.emit('sessions.changed', { session });
    return session;
  }
}
