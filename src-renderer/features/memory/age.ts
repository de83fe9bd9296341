/** A memory's age as recall words it (`today`, `yesterday`, `N days ago`). */
export function ageLabel(ageDays: number): string {
  const days = Math.max(0, Math.floor(ageDays));
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}

/** Past a day a memory is a point-in-time observation to check against the code: shown as such. */
export function isStale(ageDays: number): boolean {
  return Math.floor(ageDays) > 1;
}
