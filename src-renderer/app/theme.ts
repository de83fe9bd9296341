import { useEffect } from 'react';
import { useWorkspace } from '../stores/workspace-store';

/** Follows the system's light/dark choice unless the settings pin one; CSS does the rest. */
export function useTheme(): void {
  const theme = useWorkspace((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset['theme'];
    else root.dataset['theme'] = theme;
  }, [theme]);
}
