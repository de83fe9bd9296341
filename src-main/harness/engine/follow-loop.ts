import type { TranscriptItem } from '@shared/domain/messages';
import type { EngineEvent } from '../events/agent-event';
import type { LoopEvent, Terminal } from '../loop/types';
import type { Conversation } from './conversation';
import { noteFor } from './engine-notes';
import type { PartialReplyWriter } from './partial-reply';
import type { RunningTurn } from './running-turn';

export interface LoopFollower {
  conversation: Conversation;
  turn: RunningTurn;
  partial: PartialReplyWriter;
  /** A tool moved the working directory. */
  onCwd: (cwd: string) => void;
  /** Records an item and gives the event that shows it. */
  kept: (item: TranscriptItem) => EngineEvent;
  /** Hook runs since the last look, recorded and shown as notes. */
  hookNotes: () => Iterable<EngineEvent>;
}

/**
 * Follows a user turn's loop to its end: every event is saved as it streams (partial reply), folded
 * into the turn, yielded, and followed by its note and the hook runs it caused. When the consumer
 * closes the turn early (or the loop throws), the loop is stopped and the transcript left
 * consistent: the reply that was streaming is kept as interrupted, dangling tool calls are closed.
 */
export async function* followLoop(
  loop: AsyncGenerator<LoopEvent, Terminal>,
  f: LoopFollower,
): AsyncGenerator<EngineEvent, Terminal> {
  let terminal: Terminal | null = null;
  const { fold } = f.turn;
  try {
    for (;;) {
      const next = await loop.next();
      if (next.done) {
        terminal = next.value;
        break;
      }
      const e = next.value;
      f.partial.apply(e);
      fold.apply(e);
      if (fold.cwd !== null) f.onCwd(fold.cwd);
      yield e;
      const note = noteFor(e);
      if (note) yield f.kept(note);
      yield* f.hookNotes();
    }
    // The last Stop hooks ran after the loop's last event.
    yield* f.hookNotes();
    return terminal;
  } finally {
    if (!terminal) {
      // The consumer closed us early: stop everything and leave a consistent transcript.
      f.turn.abort.abort();
      await loop.return({ reason: 'aborted', detail: 'Closed by the caller.' });
      const partial = fold.interruptedMessage();
      if (partial) f.conversation.record(partial);
      // No one is listening any more: close the transcript here, without yielding.
      f.conversation.closeDangling();
      f.conversation.saveCost();
    }
  }
}
