import type { MessageItem, TranscriptItem } from '@shared/domain/messages';
import { CostTracker, type UsageReport } from '../cost/tracker';
import { publishUsageLine } from '../cost/usage-feed';
import { usageLineOf } from '../cost/usage-line-of';
import type { LoopEvent } from '../loop/types';
import { closeDanglingToolUses, contextFromLines } from '../session/context-window';
import { linesAfterCuts } from '../session/cut-lines';
import { readTranscript, type TranscriptLine, type TranscriptWriter } from '../session/transcript-file';

const now = () => new Date().toISOString();

/**
 * One agent's conversation: what it said and was told (the transcript items), what the next request
 * carries (the context window), and what it cost — kept together and private, so the transcript on
 * disk, the items in memory and the context can only change together, through these methods.
 */
export class Conversation {
  private readonly list: TranscriptItem[] = [];
  private window: MessageItem[] = [];
  /** What this agent cost with its sub-agents: the session total, per model. */
  readonly cost: CostTracker;
  /** What this agent's own requests cost. */
  readonly ownCost: CostTracker;
  private hadNested = false;
  /** This agent's user turns so far (the transcript's `turn` start lines, across resumes). */
  private turns = 0;

  /**
   * `costId` keys the saved cost snapshots (the session's id, or a sub-agent's); `sessionId` is the
   * session the agent belongs to (the same for the main agent).
   */
  constructor(
    private readonly costId: string,
    private readonly writer: TranscriptWriter,
    private readonly sessionId = costId,
  ) {
    this.cost = new CostTracker(costId);
    this.ownCost = new CostTracker(costId);
  }

  /** Every item so far, in order (a read-only view; it grows as the conversation does). */
  get items(): readonly TranscriptItem[] {
    return this.list;
  }

  /** The messages the next request would carry. */
  get context(): readonly MessageItem[] {
    return this.window;
  }

  /** Appends an item to the transcript (memory and disk) and, for messages, to the context window. */
  record(item: TranscriptItem): void {
    this.list.push(item);
    this.writer.append({ type: 'item', item });
    if (item.kind === 'message') this.window.push(item);
  }

  /**
   * Shows an item in this run only, without saving it: a note about the process (a repaired file,
   * an internal error) rather than part of the conversation.
   */
  show(item: TranscriptItem): void {
    this.list.push(item);
  }

  /** Writes a line that is not an item (model, title, mode) to the transcript. */
  appendLine(line: TranscriptLine): void {
    if (line.type === 'turn' && line.phase === 'start') this.turns++;
    this.writer.append(line);
  }

  /** Takes the context the loop replaced (collapse, compaction) and records how, for resume. */
  replaceContext(e: Extract<LoopEvent, { type: 'context_replaced' }>): void {
    this.window = [...e.messages];
    this.writer.append({
      type: 'context',
      how: e.how,
      keepFromId: e.keepFromId,
      summary: e.summary,
      at: now(),
    });
  }

  /**
   * One of this agent's own responses (its loop's, or a side request made for it). The first report
   * of a message id is also written as a `usage` line, priced now, for the turn it belongs to (the
   * latest started: a side request outliving its turn still belongs to it); a repeat is not.
   */
  addUsage(report: UsageReport): void {
    this.cost.add(report);
    if (!this.ownCost.add(report)) return;
    const line = usageLineOf(report, this.turns);
    this.writer.append(line);
    publishUsageLine(line, { sessionId: this.sessionId, agentId: this.costId });
  }

  /**
   * A descendant's usage: part of this agent's total (its own buckets are the descendant's). Not
   * written here: the descendant's own transcript has its usage line, and the ledger sums files.
   */
  addNestedUsage(report: UsageReport): void {
    this.hadNested = true;
    this.cost.add(report);
  }

  /**
   * Takes up a conversation from its transcript lines: items, context window (collapses and
   * compactions replayed) and the cost snapshot saved for this session. Returns the model it last
   * used, if the lines say.
   */
  resume(all: readonly TranscriptLine[]): string | null {
    // What rewinds took out is not taken up (cut-lines.ts); the file still holds it.
    const lines = linesAfterCuts(all);
    let model: string | null = null;
    // The cost snapshot is written at a turn's end; usage lines as each response arrives. Responses
    // after the last snapshot (a crash mid-turn) are added from their lines, so the total is theirs.
    let lastCost = -1;
    lines.forEach((line, i) => {
      if (line.type === 'cost' && line.snapshot.sessionId === this.costId) lastCost = i;
    });
    for (const line of lines) {
      if (line.type === 'item') this.list.push(line.item);
      else if (line.type === 'turn') this.turns += line.phase === 'start' ? 1 : 0;
      else if (line.type === 'model' || line.type === 'session') model = line.model;
      else if (line.type === 'cost') {
        this.cost.restore(line.snapshot);
        // Before sub-agents existed the snapshot was the agent's own.
        this.ownCost.restore(line.own ?? line.snapshot);
        this.hadNested ||= line.own !== undefined;
      }
    }
    lines.forEach((line, i) => {
      if (line.type !== 'usage') return;
      if (i < lastCost) {
        if (line.apiId !== null) {
          this.cost.markCounted(line.apiId);
          this.ownCost.markCounted(line.apiId);
        }
        return;
      }
      this.cost.addLine(line);
      this.ownCost.addLine(line);
    });
    this.window = contextFromLines(lines);
    return model;
  }

  /**
   * Takes a failed reply's messages out of the context (they stay in the transcript) and records
   * that, so a resumed session's context matches.
   */
  rewind(drop: readonly MessageItem[]): void {
    if (drop.length === 0) return;
    const ids = new Set(drop.map((m) => m.id));
    this.window = this.window.filter((m) => !ids.has(m.id));
    this.writer.append({ type: 'rewind', dropIds: [...ids], at: now() });
  }

  /**
   * A rewind: the `cut` line's item and all after it leave the items, the line is written, and the
   * context is replayed from the file as a reload would build it (cut-lines.ts), so that a
   * compaction made after the message goes too. False, with nothing written, if the item is unknown.
   */
  cut(line: Extract<TranscriptLine, { type: 'cut' }>): boolean {
    const at = this.list.findIndex((i) => i.id === line.fromItemId);
    if (at < 0) return false;
    this.writer.append(line);
    this.list.splice(at);
    this.window = contextFromLines(readTranscript(this.writer.file).lines);
    return true;
  }

  /** Closes tool calls left without a result (as interrupted); returns the closing item, if any. */
  closeDangling(): TranscriptItem | null {
    const closing = closeDanglingToolUses(this.list);
    if (closing) this.record(closing);
    return closing;
  }

  saveCost(): void {
    this.writer.append({
      type: 'cost',
      snapshot: this.cost.snapshot(),
      ...(this.hadNested ? { own: this.ownCost.snapshot() } : {}),
      at: now(),
    });
  }

  close(): void {
    this.writer.close();
  }
}
