import { Dialog } from '../../components/Dialog';
import { useStore } from '../../stores/store';
import { AgentsPage } from './AgentsPage';
import { GeneralSettings } from './GeneralSettings';
import { McpPage } from './McpPage';
import { PluginsPage } from './PluginsPage';
import { SETTINGS_PAGES, useSettingsPage } from './settings-page';
import './settings.css';

/**
 * Settings, in pages: a list on the left (buttons, reachable by Tab and Enter; the current one is
 * marked for screen readers too) and the page beside it.
 */
export function SettingsDialog() {
  const settings = useStore((s) => s.settings);
  const page = useSettingsPage((s) => s.page);
  const close = () => useStore.setState({ dialog: null });
  if (!settings) return null;
  const current = SETTINGS_PAGES.find((p) => p.id === page) ?? SETTINGS_PAGES[0];

  return (
    <Dialog label="Settings" onClose={close} className="settings">
      <h2>Settings</h2>
      <div className="settings-body">
        <nav aria-label="Settings pages" className="settings-nav">
          {SETTINGS_PAGES.map((p) => (
            <button
              key={p.id}
              type="button"
              className={p.id === current.id ? 'current' : undefined}
              aria-current={p.id === current.id ? 'page' : undefined}
              onClick={() => useSettingsPage.setState({ page: p.id })}
            >
              {p.label}
            </button>
          ))}
        </nav>
        <div className="settings-page" role="region" aria-label={`${current.label} settings`}>
          {current.id === 'mcp' ? (
            <McpPage />
          ) : current.id === 'plugins' ? (
            <PluginsPage />
          ) : current.id === 'agents' ? (
            <AgentsPage />
          ) : (
            <GeneralSettings settings={settings} />
          )}
        </div>
      </div>
      <div className="row end">
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
