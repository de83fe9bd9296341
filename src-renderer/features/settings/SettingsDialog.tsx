import { useState } from 'react';
import type { ThemePreference } from '@shared/domain/settings';
import { Dialog } from '../../components/Dialog';
import { setApiKey, updateSettings } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { RulesSection } from '../permissions/RulesSection';
import { TrustedFolders } from './TrustedFolders';

const KEY_SOURCE: Record<string, string> = {
  env: 'from ANTHROPIC_API_KEY (the environment wins over a stored key)',
  stored: 'stored',
  none: 'none — new sessions use the Demo model',
};

export function SettingsDialog() {
  const settings = useStore((s) => s.settings);
  const models = useStore((s) => s.models);
  const hasProject = useStore((s) => s.project !== null);
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(
    settings?.baseUrlSource === 'settings' ? (settings.anthropicBaseUrl ?? '') : '',
  );
  const close = () => useStore.setState({ dialog: null });
  if (!settings) return null;

  return (
    <Dialog label="Settings" onClose={close} className="settings">
      <h2>Settings</h2>
      {settings.problem ? (
        <p role="alert" className="error-text">
          {settings.problem}
        </p>
      ) : null}
      <section aria-label="API access">
        <h3>API access</h3>
        <p>
          API key: <strong>{KEY_SOURCE[settings.apiKeySource]}</strong>
        </p>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (key.trim() !== '') void setApiKey(key.trim()).then((ok) => ok && setKey(''));
          }}
        >
          <label>
            New API key
            <input
              type="password"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          <button type="submit" disabled={key.trim() === ''}>
            Save key
          </button>
          {settings.apiKeySource === 'stored' ? (
            <button type="button" onClick={() => void setApiKey(null)}>
              Forget stored key
            </button>
          ) : null}
        </form>
        <p className="muted">
          {settings.keyStorage === 'safeStorage'
            ? 'Keys are encrypted by your operating system (Electron safeStorage).'
            : 'In serve mode a key typed here is kept in memory for this run only; set ANTHROPIC_API_KEY to keep one.'}
        </p>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void updateSettings({ anthropicBaseUrl: baseUrl.trim() === '' ? null : baseUrl.trim() });
          }}
        >
          <label>
            API base URL
            <input
              value={baseUrl}
              placeholder={
                settings.baseUrlSource === 'env'
                  ? `${settings.anthropicBaseUrl ?? ''} (from ANTHROPIC_BASE_URL)`
                  : 'https://api.anthropic.com'
              }
              onChange={(e) => setBaseUrl(e.target.value)}
              spellCheck={false}
            />
          </label>
          <button type="submit">Save URL</button>
        </form>
      </section>
      <section aria-label="Defaults">
        <h3>Defaults</h3>
        <label>
          Model for new sessions
          <select
            value={settings.model ?? ''}
            onChange={(e) => void updateSettings({ model: e.target.value === '' ? null : e.target.value })}
          >
            <option value="">Automatic (Demo model without a key)</option>
            {models
              .filter((m) => !m.demo)
              .map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
          </select>
        </label>
        <label>
          Theme
          <select
            value={settings.theme}
            onChange={(e) => void updateSettings({ theme: e.target.value as ThemePreference })}
          >
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={settings.terminalGpu}
            onChange={(e) => void updateSettings({ terminalGpu: e.target.checked })}
          />
          Draw terminals with the GPU (WebGL)
        </label>
      </section>
      {hasProject ? <RulesSection /> : null}
      <TrustedFolders />
      <div className="row end">
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
