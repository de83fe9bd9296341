import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStore } from '../stores/store';
import { Header } from './Header';

afterEach(cleanup);

describe('Header', () => {
  it('names its buttons, shows their words, and does what each says', () => {
    useStore.setState({
      project: { id: 'p', path: '/work/p', name: 'p', lastOpenedAt: '' },
      layout: 'tabs',
      dialog: null,
    });
    render(<Header />);
    const names = screen.getAllByRole('button').map((b) => [b.getAttribute('aria-label'), b.textContent]);
    expect(names).toEqual([
      ['Side by side', 'Side by side'],
      ['Archived and deleted sessions', 'Archive'],
      ['Memory', 'Memory'],
      ['Cost dashboard', 'Cost'],
      ['Open project…', 'Open project…'],
      ['Settings', 'Settings'],
    ]);
    const sideBySide = screen.getByRole('button', { name: 'Side by side' });
    expect(sideBySide.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(sideBySide);
    expect(useStore.getState().layout).toBe('grid');
    expect(sideBySide.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Memory' }));
    expect(useStore.getState().memoryOpen).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cost dashboard' }));
    expect(useStore.getState().costOpen).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(useStore.getState().dialog).toBe('settings');
    // A button that toggles nothing says nothing about being pressed.
    expect(screen.getByRole('button', { name: 'Settings' }).hasAttribute('aria-pressed')).toBe(false);
  });
});
