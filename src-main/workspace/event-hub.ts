import type { EventName, EventPayload } from '@shared/ipc/contract';
import type { StreamDelta, ToolProgressDelta } from '@shared/domain/messages';
import type { TaskOutputDelta } from '@shared/domain/session';

/** A background task's output per batch is cut to its tail: the UI shows only the tail, and `yes` must not flood the window. */
const TASK_BATCH_CHARS = 8192;

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface EventHubOptions {
  /** How long text deltas wait to be sent together; about one animation frame. */
  flushIntervalMs?: number;
}

/**
 * Fan-out of contract events to every connected transport, with text deltas batched.
 *
 * Deltas of all sessions go out together about once a frame, so ten streaming tabs cost ~60 IPC
 * messages a second rather than thousands. Any other event first flushes pending deltas, so a
 * message's final form can never overtake its own last deltas.
 */
export class EventHub {
  private readonly sinks = new Set<EventSink>();
  private pending: StreamDelta[] = [];
  private progress: ToolProgressDelta[] = [];
  private taskOut: TaskOutputDelta[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly flushIntervalMs: number;
  /** Counters for the benchmark: events and deltas sent since start. */
  readonly stats = { events: 0, batches: 0, deltas: 0 };

  constructor(options: EventHubOptions = {}) {
    this.flushIntervalMs = options.flushIntervalMs ?? 16;
  }

  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.flush();
    this.send(event, payload);
  }

  delta(delta: StreamDelta): void {
    const last = this.pending.at(-1);
    if (
      last &&
      last.sessionId === delta.sessionId &&
      last.itemId === delta.itemId &&
      last.index === delta.index
    ) {
      last.text += delta.text;
    } else {
      this.pending.push({ ...delta });
    }
    this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  /** Live tool output; batched with the text deltas, merged per tool. */
  toolProgress(p: ToolProgressDelta): void {
    const last = this.progress.at(-1);
    if (last && last.sessionId === p.sessionId && last.toolUseId === p.toolUseId) last.text += p.text;
    else this.progress.push({ ...p });
    this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  /** A background task's output; batched with the deltas, merged per task, only the tail kept. */
  taskOutput(p: TaskOutputDelta): void {
    const last = this.taskOut.find((t) => t.sessionId === p.sessionId && t.taskId === p.taskId);
    if (last) last.text = (last.text + p.text).slice(-TASK_BATCH_CHARS);
    else this.taskOut.push({ ...p, text: p.text.slice(-TASK_BATCH_CHARS) });
    this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0 && this.progress.length === 0 && this.taskOut.length === 0) return;
    const deltas = this.pending;
    const progress = this.progress;
    const taskOutput = this.taskOut;
    this.pending = [];
    this.progress = [];
    this.taskOut = [];
    this.stats.batches++;
    this.stats.deltas += deltas.length;
    this.send('stream.batch', { deltas, progress, taskOutput });
  }

  private send<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.stats.events++;
    for (const sink of this.sinks) {
      try {
        sink(event, payload);
      } catch {
        // One broken transport must not starve the others; transports log their own failures.
      }
    }
  }

  dispose(): void {
    this.flush();
    this.sinks.clear();
  }
}
