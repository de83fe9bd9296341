/** What the team view needs of a member to tell whether it looks stuck. */
export interface Progress {
  state: string;
  lastProgressAt: string | null;
  recentCalls: readonly string[];
}

export type Stuck =
  /** Working, yet nothing new (text, a call, a result) for longer than the limit. */
  | { kind: 'silent'; forMs: number }
  /** The same tool call, with the same input, three times in a row. */
  | { kind: 'repeating'; call: string };

/** How many equal calls in a row look like a loop. */
export const REPEATS = 3;

/** The default limit for "no progress", in seconds; the view has a control for it. */
export const DEFAULT_STUCK_AFTER_SEC = 120;

/**
 * Whether a working member looks stuck, and why. Only a working member can be: one waiting for a
 * person is waiting, not stuck, and an ended one has nothing left to do. A loop is named before
 * silence, since it says more.
 */
export function stuckOf(p: Progress, now: number, limitMs: number): Stuck | null {
  if (p.state !== 'working') return null;
  const last = p.recentCalls.slice(-REPEATS);
  if (last.length === REPEATS && last.every((c) => c === last[0]))
    return { kind: 'repeating', call: last[0] ?? '' };
  if (p.lastProgressAt === null) return null;
  const since = Date.parse(p.lastProgressAt);
  if (Number.isNaN(since)) return null;
  const forMs = now - since;
  return forMs > limitMs ? { kind: 'silent', forMs } : null;
}
