import { useEffect } from 'react';
import { useStore } from '../stores/store';

/**
 * Sets `data-theme` on the root to `light` or `dark`: the setting when it pins one, else the system's
 * choice, followed live. CSS keys every colour off that one attribute.
 */
export function useTheme(): void {
  const theme = useStore((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    const root = document.documentElement;
    if (theme !== 'system') {
      root.dataset['theme'] = theme;
      return;
    }
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => (root.dataset['theme'] = query.matches ? 'dark' : 'light');
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [theme]);
}
