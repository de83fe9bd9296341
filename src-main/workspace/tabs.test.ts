import { describe, expect, it } from 'vitest';
import { closeTab, openTab, reorderTabs } from './tabs';

describe('tab strip operations', () => {
  const tabs = { open: ['a', 'b', 'c'], active: 'b' };

  it('opens a new tab at the end and activates an existing one in place', () => {
    expect(openTab(tabs, 'd')).toEqual({ open: ['a', 'b', 'c', 'd'], active: 'd' });
    expect(openTab(tabs, 'a')).toEqual({ open: ['a', 'b', 'c'], active: 'a' });
  });

  it('closing the active tab activates its right neighbour, else the left one', () => {
    expect(closeTab(tabs, 'b')).toEqual({ open: ['a', 'c'], active: 'c' });
    expect(closeTab({ open: ['a', 'b'], active: 'b' }, 'b')).toEqual({ open: ['a'], active: 'a' });
    expect(closeTab({ open: ['a'], active: 'a' }, 'a')).toEqual({ open: [], active: null });
    expect(closeTab(tabs, 'a')).toEqual({ open: ['b', 'c'], active: 'b' });
    expect(closeTab(tabs, 'zzz')).toBe(tabs);
  });

  it('reorders, ignoring unknown and duplicate ids and keeping forgotten ones', () => {
    expect(reorderTabs(tabs, ['c', 'a', 'b'])).toEqual({ open: ['c', 'a', 'b'], active: 'b' });
    expect(reorderTabs(tabs, ['c', 'x', 'c'])).toEqual({ open: ['c', 'a', 'b'], active: 'b' });
  });
});
