import { lazy, Suspense } from 'react';
import { useStore } from '../stores/store';
import { OpenProjectDialog } from '../features/projects/OpenProjectDialog';
import { Welcome } from '../features/projects/Welcome';
import { TrustDialog } from '../features/projects/TrustDialog';
import { Workspace } from '../features/sessions/Workspace';
import { CommandPalette } from '../features/search/CommandPalette';
import { Toasts } from '../components/Toasts';
import { Header } from './Header';
import { useShortcuts } from './shortcuts';
import { useTheme } from './theme';
import { useMarkSeenOnFocus } from './visibility';

// Loaded when first opened: most visits never open it, and the first paint should not wait for it.
const SettingsDialog = lazy(() =>
  import('../features/settings/SettingsDialog').then((m) => ({ default: m.SettingsDialog })),
);

// The memory browser brings CodeMirror: its own chunk, loaded the first time it opens.
const MemoryBrowser = lazy(() => import('../features/memory/MemoryBrowser'));

// The cost dashboard brings uPlot: its own chunks, loaded the first time it (or a session's cost) opens.
const CostDashboard = lazy(() => import('../features/cost/CostDashboard'));
const SessionCostView = lazy(() => import('../features/cost/SessionCostView'));

export function App() {
  useTheme();
  useShortcuts();
  useMarkSeenOnFocus();
  const hasProject = useStore((s) => s.project !== null);
  const connection = useStore((s) => s.connection);
  const dialog = useStore((s) => s.dialog);
  const memoryOpen = useStore((s) => s.memoryOpen && s.project !== null);
  const costOpen = useStore((s) => s.costOpen && s.project !== null);
  const costSession = useStore((s) => s.costSessionId !== null && s.project !== null);
  return (
    <div className="app">
      <Header />
      {connection === 'reconnecting' || connection === 'closed' ? (
        <div className="banner" role="status">
          {connection === 'closed'
            ? 'Disconnected from Carapace.'
            : 'Connection to Carapace lost — reconnecting…'}
        </div>
      ) : null}
      {hasProject ? <Workspace /> : <Welcome />}
      <Toasts />
      {dialog === 'open-project' ? <OpenProjectDialog /> : null}
      {dialog === 'settings' ? (
        <Suspense fallback={null}>
          <SettingsDialog />
        </Suspense>
      ) : null}
      {memoryOpen ? (
        <Suspense fallback={null}>
          <MemoryBrowser />
        </Suspense>
      ) : null}
      {costOpen ? (
        <Suspense fallback={null}>
          <CostDashboard />
        </Suspense>
      ) : null}
      {costSession ? (
        <Suspense fallback={null}>
          <SessionCostView />
        </Suspense>
      ) : null}
      <CommandPalette />
      <TrustDialog />
    </div>
  );
}
