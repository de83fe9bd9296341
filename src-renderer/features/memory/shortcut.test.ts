import { afterEach, describe, expect, it } from 'vitest';
import { handleShortcut } from '../../app/shortcuts';
import { useStore } from '../../stores/store';

const key = (k: string, over: KeyboardEventInit = {}) =>
  new KeyboardEvent('keydown', { key: k, ctrlKey: true, ...over });

afterEach(() => useStore.setState({ memoryOpen: false, project: null, dialog: null }));

describe('memory browser shortcut', () => {
  it('Ctrl+Shift+M opens the browser when a project is open', () => {
    useStore.setState({ project: null, dialog: null, memoryOpen: false });
    expect(handleShortcut(key('M', { shiftKey: true }))).toBe(false);
    expect(useStore.getState().memoryOpen).toBe(false);
    useStore.setState({ project: { id: 'p', path: '/p', name: 'p', lastOpenedAt: '' } });
    expect(handleShortcut(key('M', { shiftKey: true }))).toBe(true);
    expect(useStore.getState().memoryOpen).toBe(true);
  });

  it('leaves the workspace keys alone while the browser is open', () => {
    useStore.setState({
      project: { id: 'p', path: '/p', name: 'p', lastOpenedAt: '' },
      memoryOpen: true,
      sidebarCollapsed: false,
    });
    expect(handleShortcut(key('b'))).toBe(false);
    expect(useStore.getState().sidebarCollapsed).toBe(false);
    useStore.setState({ memoryOpen: false });
    expect(handleShortcut(key('b'))).toBe(true);
    expect(useStore.getState().sidebarCollapsed).toBe(true);
  });
});
