import { describe, expect, it } from 'vitest';
import { moveSelection } from './navigation';

// coordinator → a (→ a1 → a2), b
const cards = [
  { key: 'root', depth: 0 },
  { key: 'a', depth: 1 },
  { key: 'a1', depth: 2 },
  { key: 'a2', depth: 2 },
  { key: 'b', depth: 1 },
];

describe('moving between cards', () => {
  it('goes up and down in drawing order and stops at the ends', () => {
    expect(moveSelection(cards, 'a', 'ArrowDown')).toBe('a1');
    expect(moveSelection(cards, 'a1', 'ArrowUp')).toBe('a');
    expect(moveSelection(cards, 'b', 'ArrowDown')).toBe('b');
    expect(moveSelection(cards, 'root', 'ArrowUp')).toBe('root');
    expect(moveSelection(cards, 'a2', 'Home')).toBe('root');
    expect(moveSelection(cards, 'a', 'End')).toBe('b');
  });

  it('goes to the parent with ← and into the children with →', () => {
    expect(moveSelection(cards, 'a2', 'ArrowLeft')).toBe('a');
    expect(moveSelection(cards, 'b', 'ArrowLeft')).toBe('root');
    expect(moveSelection(cards, 'root', 'ArrowLeft')).toBe('root');
    expect(moveSelection(cards, 'a', 'ArrowRight')).toBe('a1');
  });

  it('starts at the first card when nothing is selected, and ignores other keys', () => {
    expect(moveSelection(cards, null, 'ArrowDown')).toBe('root');
    expect(moveSelection(cards, 'gone', 'ArrowUp')).toBe('root');
    expect(moveSelection(cards, 'a', 'x')).toBeNull();
    expect(moveSelection([], null, 'ArrowDown')).toBeNull();
  });
});
