/** The context window of the Claude models Carapace knows (input tokens a request may hold). */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** The long-context variants (ids ending in `[1m]`, as Claude Code names them) hold a million. */
export const LONG_CONTEXT_WINDOW = 1_000_000;

/**
 * The context window of a model id. Every current Claude model has 200k tokens unless asked for its
 * 1M-token variant; an unknown id (a newer model typed by the person) gets 200k too, the safe side
 * for compaction (it compacts earlier than it must, never later).
 */
export function contextWindowFor(model: string): number {
  return /\[1m\]$/i.test(model) ? LONG_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
