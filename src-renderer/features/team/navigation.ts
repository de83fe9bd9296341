/** The part of a card the arrow keys need: its key and its depth in the tree. */
export interface Placed {
  key: string;
  depth: number;
}

/**
 * Where an arrow key (or Home/End) moves the selection in the card tree: ↑/↓ to the previous or next
 * card, ← to the parent, → to the first child (or the next card when it has none). Null when the key
 * is not a move. The selection stays inside the list.
 */
export function moveSelection(cards: readonly Placed[], selected: string | null, key: string): string | null {
  if (cards.length === 0) return null;
  const found = cards.findIndex((c) => c.key === selected);
  const i = found < 0 ? 0 : found;
  const here = cards[i];
  if (!here) return null;
  const at = (j: number) => cards[Math.max(0, Math.min(cards.length - 1, j))]?.key ?? null;
  switch (key) {
    case 'ArrowDown':
      return found < 0 ? at(0) : at(i + 1);
    case 'ArrowUp':
      return at(i - 1);
    case 'Home':
      return at(0);
    case 'End':
      return at(cards.length - 1);
    case 'ArrowLeft': {
      for (let j = i - 1; j >= 0; j--) if ((cards[j]?.depth ?? 0) < here.depth) return at(j);
      return here.key;
    }
    case 'ArrowRight':
      return at(i + 1);
    default:
      return null;
  }
}
