import { describe, expect, it } from 'vitest';
import { useStore } from '../stores/store';
import { cycleTab, handleShortcut, tabStep } from './shortcuts';

const keys = (
  key: string,
  over: Partial<Record<'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey', boolean>> = {},
) => ({
  key,
  ctrlKey: true,
  shiftKey: false,
  altKey: false,
  metaKey: false,
  ...over,
});

describe('cycling tabs', () => {
  it('reads Ctrl+Tab and Ctrl+PageDown as next, with Shift or PageUp as previous', () => {
    expect(tabStep(keys('Tab'))).toBe(1);
    expect(tabStep(keys('Tab', { shiftKey: true }))).toBe(-1);
    expect(tabStep(keys('PageDown'))).toBe(1);
    expect(tabStep(keys('PageUp'))).toBe(-1);
  });

  it('leaves other keys alone', () => {
    expect(tabStep(keys('Tab', { ctrlKey: false }))).toBe(0);
    expect(tabStep(keys('Tab', { metaKey: true, ctrlKey: false }))).toBe(0);
    expect(tabStep(keys('PageDown', { altKey: true }))).toBe(0);
    // Ctrl+Shift+PageDown moves a tab in some browsers: not a switch here.
    expect(tabStep(keys('PageDown', { shiftKey: true }))).toBe(0);
    expect(tabStep(keys('a'))).toBe(0);
  });

  it('wraps at both ends', () => {
    const open = ['a', 'b', 'c'];
    expect(cycleTab(open, 'a', 1)).toBe('b');
    expect(cycleTab(open, 'c', 1)).toBe('a');
    expect(cycleTab(open, 'a', -1)).toBe('c');
    expect(cycleTab(open, 'b', -1)).toBe('a');
  });

  it('starts from an end when nothing is active and does nothing with no tabs', () => {
    expect(cycleTab(['a', 'b'], null, 1)).toBe('a');
    expect(cycleTab(['a', 'b'], 'gone', -1)).toBe('b');
    expect(cycleTab([], null, 1)).toBeNull();
  });
});

describe('the cost dashboard key', () => {
  it('opens the dashboard with Ctrl/Cmd+Shift+U, and turns the workspace keys off while it is open', () => {
    useStore.setState({
      project: { id: 'p', path: '/work/p', name: 'p', lastOpenedAt: '' },
      dialog: null,
      costOpen: false,
      sidebarCollapsed: false,
    });
    const press = (key: string, over: Partial<KeyboardEventInit> = {}) =>
      handleShortcut(new KeyboardEvent('keydown', { key, ctrlKey: true, ...over }));
    expect(press('U', { shiftKey: true })).toBe(true);
    expect(useStore.getState().costOpen).toBe(true);
    // Ctrl+B would fold the sidebar behind the dashboard: not while it is open.
    expect(press('b')).toBe(false);
    expect(useStore.getState().sidebarCollapsed).toBe(false);
    useStore.getState().setCostOpen(false);
    expect(press('U', { metaKey: true, ctrlKey: false, shiftKey: true })).toBe(true);
    expect(useStore.getState().costOpen).toBe(true);
  });
});
