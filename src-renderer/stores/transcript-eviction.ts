/**
 * Which loaded transcripts the window lets go of. Dozens of open tabs of long sessions would
 * otherwise all stay in memory although one (or a few tiles) can be seen: past a bound, the
 * transcripts of the sessions least recently on screen are dropped and fetched again, whole, when
 * shown (events for a transcript not loaded are ignored, so nothing half-updated is ever shown).
 */

/**
 * Items (messages and notices, all agents of a session) the window keeps of transcripts neither on
 * screen nor working: about 50 MB of heap. 32 tabs of 500 messages fit, so switching among them
 * needs no fetch; a few sessions of thousands of messages push the oldest out.
 */
export const TRANSCRIPT_BOUND = 25_000;

/** Sessions by how recently they were on screen (or loaded), most recent first. */
export class RecentSessions {
  private readonly order = new Map<string, true>();

  /** Marks a session as just seen. */
  touch(sessionId: string): void {
    this.order.delete(sessionId);
    this.order.set(sessionId, true);
  }

  forget(sessionId: string): void {
    this.order.delete(sessionId);
  }

  has(sessionId: string): boolean {
    return this.order.has(sessionId);
  }

  /** Most recent first. */
  list(): string[] {
    return [...this.order.keys()].reverse();
  }
}

export interface EvictionInput {
  /** Sessions with a loaded transcript. */
  loaded: readonly string[];
  recent: RecentSessions;
  /** On screen now: never dropped. */
  visible: (sessionId: string) => boolean;
  /** Working now (its output streams in): kept, so coming back to it needs no fetch. */
  working: (sessionId: string) => boolean;
  /** How many items a session's loaded transcripts hold. */
  size: (sessionId: string) => number;
  bound?: number;
}

/**
 * The sessions whose transcripts to drop: those neither visible nor working, from the least
 * recently seen, until the rest hold at most `bound` items. Sessions never seen count as least
 * recent.
 */
export function transcriptsToEvict({
  loaded,
  recent,
  visible,
  working,
  size,
  bound = TRANSCRIPT_BOUND,
}: EvictionInput): string[] {
  const candidates = loaded.filter((id) => !visible(id) && !working(id));
  const sizes = new Map(candidates.map((id) => [id, size(id)]));
  let total = 0;
  for (const n of sizes.values()) total += n;
  if (total <= bound) return [];
  const rank = new Map(recent.list().map((id, i) => [id, i]));
  const oldestFirst = [...candidates].sort(
    (a, b) => (rank.get(b) ?? Number.MAX_SAFE_INTEGER) - (rank.get(a) ?? Number.MAX_SAFE_INTEGER),
  );
  const drop: string[] = [];
  for (const id of oldestFirst) {
    if (total <= bound) break;
    drop.push(id);
    total -= sizes.get(id) ?? 0;
  }
  return drop;
}
