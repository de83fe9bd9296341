const DAY_MS = 24 * 60 * 60 * 1000;

/** How old a memory is, in whole days since it was last written (0 = within the last day). */
export function memoryAgeDays(mtimeMs: number, now: Date): number {
  // A file from the future (clock skew, a copied folder) counts as written now, not as negative days.
  return Math.max(0, Math.floor((now.getTime() - mtimeMs) / DAY_MS));
}

/** The age as the model reads it: `today`, `yesterday`, `N days ago`. */
export function memoryAgeLabel(days: number): string {
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}

/**
 * The warning a memory older than a day carries. Memories record what was true when they were
 * written; the code moves on, so the model is told to check before it acts on one.
 */
export function freshnessWarning(days: number): string | null {
  if (days <= 1) return null;
  return `This memory was written ${memoryAgeLabel(days)}. Memories are point-in-time observations, not live state: verify what it says against the current code before relying on it.`;
}
