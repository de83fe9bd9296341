import { describe, expect, it } from 'vitest';
import { heldOrder } from './sidebar-order';

describe('the sidebar order held under the pointer', () => {
  it('keeps the order it had while sessions are updated', () => {
    expect(heldOrder(['a', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['a', 'b', 'c']);
  });

  it('drops sessions gone and adds new ones at the end', () => {
    expect(heldOrder(['a', 'b', 'c'], ['d', 'c', 'a'])).toEqual(['a', 'c', 'd']);
    expect(heldOrder([], ['x', 'y'])).toEqual(['x', 'y']);
  });
});
