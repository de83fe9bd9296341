import type { Terminal } from '../loop/types';
import type { Conversation } from './conversation';
import type { TurnResult } from './engine-options';
import { TurnFold } from './turn-fold';

const now = () => new Date().toISOString();

/**
 * The bookkeeping of one running turn (a user turn or a /compact): its abort controller (the
 * caller's signal aborts it too), the transcript's `turn` start and end lines, the fold of its
 * events, and its wall and API durations for the result.
 */
export class RunningTurn {
  readonly abort = new AbortController();
  readonly fold: TurnFold;
  private readonly started = performance.now();
  private readonly apiBefore: number;
  private readonly onOuterAbort = () => this.abort.abort();

  constructor(
    private readonly conversation: Conversation,
    private readonly outer: AbortSignal | undefined,
  ) {
    outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.apiBefore = conversation.cost.apiDurationMs;
    this.fold = new TurnFold(conversation);
  }

  /** Writes the turn's start line. */
  open(): void {
    this.conversation.appendLine({ type: 'turn', phase: 'start', at: now() });
  }

  /** Writes the turn's end line; the caller's signal no longer reaches it. */
  end(): void {
    this.outer?.removeEventListener('abort', this.onOuterAbort);
    this.conversation.appendLine({ type: 'turn', phase: 'end', at: now() });
  }

  /** The turn's result: the fold's usage, and how long the turn and its requests took. */
  result(
    sessionId: string,
    terminal: Terminal,
    r: Pick<TurnResult, 'text' | 'numTurns' | 'permissionDenials' | 'error'>,
  ): TurnResult {
    return {
      sessionId,
      terminal,
      text: r.text,
      numTurns: r.numTurns,
      durationMs: Math.round(performance.now() - this.started),
      durationApiMs: Math.round(this.conversation.cost.apiDurationMs - this.apiBefore),
      usage: this.fold.usage,
      permissionDenials: r.permissionDenials,
      error: r.error,
    };
  }
}
