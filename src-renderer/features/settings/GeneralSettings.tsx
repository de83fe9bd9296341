import { useState } from 'react';
import type { SettingsView, ThemePreference } from '@shared/domain/settings';
import { setApiKey, updateSettings } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { RulesSection } from '../permissions/RulesSection';
import { HooksSection } from './HooksSection';
import { TrustedFolders } from './TrustedFolders';

const KEY_SOURCE: Record<string, string> = {
  env: 'from ANTHROPIC_API_KEY (the environment wins over a stored key)',
  stored: 'stored',
  none: 'none — new sessions use the Demo model',
};

/** Settings → General: API access, defaults, the permission rules, hooks and trusted folders. */
export function GeneralSettings({ settings }: { settings: SettingsView }) {
  const models = useStore((s) => s.models);
  const hasProject = useStore((s) => s.project !== null);
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(
    settings.baseUrlSource === 'settings' ? (settings.anthropicBaseUrl ?? '') : '',
  );
  return (
    <>
      {settings.problem ? (
        <p role="alert" className="error-text">
          {settings.problem}
        </p>
      ) : null}
      <section aria-label="API access">
        <h3>API access</h3>
        <div className="settings-grid">
          {/* The colon is for screen readers (and tests): "API key: stored". */}
          <span className="settings-label">
            API key<span className="sr-only">:</span>
          </span>{' '}
          <span className="settings-value">
            <strong>{KEY_SOURCE[settings.apiKeySource]}</strong>
          </span>
          <span />
          <label className="settings-label" htmlFor="settings-api-key">
            New API key
          </label>
          <form
            id="settings-key-form"
            className="settings-control"
            onSubmit={(e) => {
              e.preventDefault();
              if (key.trim() !== '') void setApiKey(key.trim()).then((ok) => ok && setKey(''));
            }}
          >
            <input
              id="settings-api-key"
              type="password"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </form>
          <span className="settings-actions">
            <button type="submit" form="settings-key-form" disabled={key.trim() === ''}>
              Save key
            </button>
            {settings.apiKeySource === 'stored' ? (
              <button type="button" onClick={() => void setApiKey(null)}>
                Forget stored key
              </button>
            ) : null}
          </span>
          <span />
          <p className="muted settings-note">
            {settings.keyStorage === 'safeStorage'
              ? 'Keys are encrypted by your operating system (Electron safeStorage).'
              : 'In serve mode a key typed here is kept in memory for this run only; set ANTHROPIC_API_KEY to keep one.'}
          </p>
          <label className="settings-label" htmlFor="settings-base-url">
            API base URL
          </label>
          <form
            id="settings-url-form"
            className="settings-control"
            onSubmit={(e) => {
              e.preventDefault();
              void updateSettings({ anthropicBaseUrl: baseUrl.trim() === '' ? null : baseUrl.trim() });
            }}
          >
            <input
              id="settings-base-url"
              className="settings-path"
              value={baseUrl}
              placeholder={
                settings.baseUrlSource === 'env'
                  ? `${settings.anthropicBaseUrl ?? ''} (from ANTHROPIC_BASE_URL)`
                  : 'https://api.anthropic.com'
              }
              onChange={(e) => setBaseUrl(e.target.value)}
              spellCheck={false}
            />
          </form>
          <span className="settings-actions">
            <button type="submit" form="settings-url-form">
              Save URL
            </button>
          </span>
        </div>
      </section>
      <section aria-label="Defaults">
        <h3>Defaults</h3>
        <div className="settings-grid">
          <label className="settings-label" htmlFor="settings-model">
            Model for new sessions
          </label>
          <select
            id="settings-model"
            className="settings-control"
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
          <span />
          <label className="settings-label" htmlFor="settings-theme">
            Theme
          </label>
          <select
            id="settings-theme"
            className="settings-control"
            value={settings.theme}
            onChange={(e) => void updateSettings({ theme: e.target.value as ThemePreference })}
          >
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
          <span />
          <span className="settings-label">Terminals</span>
          <label className="check settings-control">
            <input
              type="checkbox"
              checked={settings.terminalGpu}
              onChange={(e) => void updateSettings({ terminalGpu: e.target.checked })}
            />
            Draw terminals with the GPU (WebGL)
          </label>
          <span />
        </div>
      </section>
      {hasProject ? <RulesSection /> : null}
      <HooksSection />
      <TrustedFolders />
    </>
  );
}
