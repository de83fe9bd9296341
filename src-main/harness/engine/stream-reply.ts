import { MessageAccumulator, type AccumulatedMessage } from '../model/accumulate';
import type { ModelClient, ModelRequest } from '../model/model-client';
import { StreamIncompleteError } from '../model/api-errors';

export interface ReplyObserver {
  /** The first event arrived: the model is answering. */
  onStart?(message: AccumulatedMessage): void;
  onText?(index: number, text: string): void;
}

/** Thrown when a reply fails after part of it arrived; `partial` is what was received. */
export class ReplyFailedError extends Error {
  constructor(
    readonly partial: AccumulatedMessage,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ReplyFailedError';
  }
}

/**
 * Streams one assistant message and returns it complete. If the stream fails or ends early, throws
 * ReplyFailedError carrying the partial message, so the caller can keep what the person already saw.
 */
export async function streamReply(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  observer: ReplyObserver = {},
): Promise<AccumulatedMessage> {
  const acc = new MessageAccumulator();
  let started = false;
  try {
    for await (const event of client.stream(request, signal)) {
      const delta = acc.apply(event);
      if (!started && event.type === 'message_start') {
        started = true;
        observer.onStart?.(acc.message);
      }
      if (delta?.kind === 'text') observer.onText?.(delta.index, delta.text);
    }
    if (!acc.message.complete) throw new StreamIncompleteError();
  } catch (error) {
    throw new ReplyFailedError(acc.message, error);
  }
  return acc.message;
}
