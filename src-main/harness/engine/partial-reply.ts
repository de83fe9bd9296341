import type { LoopEvent } from '../events/agent-event';
import { MAX_PARTIAL_INDEX, type TranscriptLine } from '../session/transcript-file';

/** How long streamed text may wait in memory before it is written: what a crash can lose. */
export const PARTIAL_FLUSH_MS = 200;

/**
 * Keeps the reply being streamed on disk as it arrives (see the `partial` transcript line), so that
 * a reply the app dies in can be shown on the next load instead of vanishing. Text is written in
 * pieces at most every {@link PARTIAL_FLUSH_MS}, a tool call as soon as it is complete: one short
 * line per piece, so a long reply costs its own length, not its length squared.
 */
export class PartialReplyWriter {
  private current: { itemId: string; model: string; written: boolean } | null = null;
  /** Text not yet written, by block index. */
  private readonly pending = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  /** The highest block index seen in this reply. */
  private maxIndex = -1;

  constructor(
    private readonly append: (line: TranscriptLine) => void,
    private readonly flushMs = PARTIAL_FLUSH_MS,
  ) {}

  apply(e: LoopEvent): void {
    switch (e.type) {
      case 'assistant_start':
        this.drop();
        this.current = { itemId: e.itemId, model: e.model, written: false };
        break;
      case 'text_delta':
        if (this.current?.itemId !== e.itemId) break;
        // The index comes from the API stream unchecked; a line past the bound would be skipped as
        // corrupt on load anyway, so it is not written (the whole reply is still saved at its end).
        if (!Number.isInteger(e.index) || e.index < 0 || e.index > MAX_PARTIAL_INDEX) break;
        this.pending.set(e.index, (this.pending.get(e.index) ?? '') + e.text);
        this.maxIndex = Math.max(this.maxIndex, e.index);
        // Unref'd: a reply's last moment of text must not keep a finished process alive.
        this.timer ??= setTimeout(() => this.flushQuietly(), this.flushMs).unref();
        break;
      case 'tool_start':
        if (this.current?.itemId !== e.itemId) break;
        this.flush();
        if (this.maxIndex >= MAX_PARTIAL_INDEX) break;
        // A tool call's event has no block index: the next one after what was seen keeps the order
        // (the stream's indices only grow, so a later text block's index is larger still).
        this.maxIndex++;
        this.write({ index: this.maxIndex, toolUse: e.block });
        break;
      case 'tombstone':
        if (this.current?.itemId !== e.itemId) break;
        if (this.current.written) this.write({ index: 0, withdrawn: true });
        this.drop();
        break;
      case 'assistant':
        // The whole reply is saved as an item now; the pieces are superseded.
        if (this.current?.itemId === e.item.id) this.drop();
        break;
      default:
        break;
    }
  }

  /** The turn is over: nothing more to write. */
  close(): void {
    this.drop();
  }

  /**
   * From the timer, where a throw would take the process down: a transcript that cannot be written
   * (a full disk) loses this piece, and the turn's own next write reports the error.
   */
  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      this.pending.clear();
    }
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [index, text] of this.pending) if (text !== '') this.write({ index, text });
    this.pending.clear();
  }

  private write(piece: { index: number; text?: string; toolUse?: LoopEventToolUse; withdrawn?: true }): void {
    if (!this.current) return;
    this.current.written = true;
    this.append({ type: 'partial', itemId: this.current.itemId, model: this.current.model, ...piece });
  }

  private drop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
    this.current = null;
    this.maxIndex = -1;
  }
}

type LoopEventToolUse = Extract<LoopEvent, { type: 'tool_start' }>['block'];
