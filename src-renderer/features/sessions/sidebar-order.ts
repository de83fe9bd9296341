/**
 * The sidebar's order while the pointer is over it: the order it had when the pointer came in, so an
 * entry never moves under a click about to land on it. Sessions gone since are dropped; sessions new
 * since are added at the end, where they push nothing the pointer is on.
 */
export function heldOrder(held: readonly string[], current: readonly string[]): string[] {
  const now = new Set(current);
  const kept = held.filter((id) => now.has(id));
  const before = new Set(held);
  return [...kept, ...current.filter((id) => !before.has(id))];
}
