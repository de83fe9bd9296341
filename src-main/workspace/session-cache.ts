/**
 * The sessions held in memory ("hydrated": transcript parsed, engine built), bounded. Opening
 * dozens of long sessions (tabs restored, a person paging through the sidebar) would otherwise
 * keep every transcript and engine until the app quits. Past the bound, the least recently used
 * session that may go is dehydrated: dropped from memory, to be read back from its JSONL the next
 * time anything asks for it. What may go is the owner's call (`evictable`): never a running one.
 */

/** Sessions kept in memory beyond those that may not go (running, on screen, a team's). */
export const HYDRATED_BOUND = 12;

export interface SessionCacheOptions<T> {
  bound?: number | undefined;
  /** Whether a session may leave memory now (not running, not on screen, nothing waiting on it). */
  evictable(id: string, value: T): boolean;
  /** Called for each session dropped: saves what the index needs and closes it. */
  evicted(id: string, value: T): void;
}

/**
 * A map of sessions in least-recently-used order. Reads (`get`, `has`, `values`) do not count as use
 * (listing every session must not keep them all); `touch` and `set` do.
 */
export class SessionCache<T> {
  /** Insertion order is recency: the first entry is the least recently used. */
  private readonly entries = new Map<string, T>();
  readonly bound: number;

  constructor(private readonly options: SessionCacheOptions<T>) {
    this.bound = options.bound ?? HYDRATED_BOUND;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): T | undefined {
    return this.entries.get(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  values(): IterableIterator<T> {
    return this.entries.values();
  }

  /** Ids from least to most recently used. */
  ids(): string[] {
    return [...this.entries.keys()];
  }

  /** Adds (or replaces) a session as the most recently used, then trims to the bound. */
  set(id: string, value: T): this {
    this.entries.delete(id);
    this.entries.set(id, value);
    this.trim();
    return this;
  }

  /** Marks a session as just used. */
  touch(id: string): void {
    const value = this.entries.get(id);
    if (value === undefined) return;
    this.entries.delete(id);
    this.entries.set(id, value);
  }

  /** Forgets a session without calling `evicted` (its owner already closed it). */
  delete(id: string): boolean {
    return this.entries.delete(id);
  }

  /**
   * Drops the least recently used sessions that may go until at most `bound` of those that may go
   * remain; those that may not (running ones) do not count and are never dropped. Returns the ids
   * dropped, oldest first.
   */
  trim(): string[] {
    const candidates = [...this.entries].filter(([id, v]) => this.options.evictable(id, v));
    const dropped: string[] = [];
    for (const [id, value] of candidates.slice(0, Math.max(0, candidates.length - this.bound))) {
      this.entries.delete(id);
      dropped.push(id);
      this.options.evicted(id, value);
    }
    return dropped;
  }
}
