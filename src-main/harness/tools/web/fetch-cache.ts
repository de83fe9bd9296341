/** How long a fetched page is reused for the same URL, as Claude Code's WebFetch does. */
export const CACHE_TTL_MS = 15 * 60 * 1000;
const MAX_ENTRIES = 50;

export interface CachedPage {
  /** Where the content came from (after same-site redirects). */
  url: string;
  markdown: string;
  notes: string[];
}

/**
 * A small cache of converted pages by requested URL: repeated questions about one page within 15
 * minutes fetch it once. Bounded (oldest out first); entries past their time are dropped when met.
 */
export class FetchCache {
  private readonly entries = new Map<string, { at: number; page: CachedPage }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(url: string): CachedPage | null {
    const hit = this.entries.get(url);
    if (!hit) return null;
    if (this.now() - hit.at > CACHE_TTL_MS) {
      this.entries.delete(url);
      return null;
    }
    return hit.page;
  }

  set(url: string, page: CachedPage): void {
    this.entries.delete(url);
    this.entries.set(url, { at: this.now(), page });
    while (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
