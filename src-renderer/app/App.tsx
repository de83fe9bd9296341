import { useStore } from '../stores/store';
import { OpenProjectDialog } from '../features/projects/OpenProjectDialog';
import { Welcome } from '../features/projects/Welcome';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { TrustDialog } from '../features/projects/TrustDialog';
import { Workspace } from '../features/sessions/Workspace';
import { Toasts } from '../components/Toasts';
import { Header } from './Header';
import { useShortcuts } from './shortcuts';
import { useTheme } from './theme';
import { useMarkSeenOnFocus } from './visibility';

export function App() {
  useTheme();
  useShortcuts();
  useMarkSeenOnFocus();
  const hasProject = useStore((s) => s.project !== null);
  const connection = useStore((s) => s.connection);
  const dialog = useStore((s) => s.dialog);
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
      {dialog === 'settings' ? <SettingsDialog /> : null}
      <TrustDialog />
    </div>
  );
}
