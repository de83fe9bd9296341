import { useEffect, useState } from 'react';
import type { PluginsView, PluginView } from '@shared/ipc/contract/plugins';
import { getClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { loadLatest, problemText } from './page-load';
import './plugins.css';

/**
 * Settings → Plugins: the plugins installed from local folders (Claude Code's layout), each with an
 * enable/disable switch and Remove; "Install from folder…" takes a path (typed, or the desktop app's
 * folder picker). A disabled plugin's skills, commands, agents and hooks are not loaded. A settings
 * file's `enabledPlugins` (the open project's, as far as its trust goes, the user's, the policy's)
 * outranks the switch: the row says so.
 */
export function PluginsPage() {
  const nativePicker = useStore((s) => s.appInfo?.capabilities.nativeFolderPicker ?? false);
  // Omitted when no project is open: the states are then the user's and the policy's.
  const projectId = useStore((s) => s.project?.id) ?? undefined;
  const [view, setView] = useState<PluginsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [folder, setFolder] = useState('');
  const [installing, setInstalling] = useState(false);
  useEffect(
    () => loadLatest(getClient().invoke('plugins.list', { projectId }), setView, setError),
    [projectId],
  );

  /** Runs one change; its answer replaces the list, its failure is shown above it. */
  const act = async (run: () => Promise<PluginsView>): Promise<boolean> => {
    try {
      setView(await run());
      setError(null);
      return true;
    } catch (e) {
      setError(problemText(e));
      return false;
    }
  };
  const install = async (path: string) => {
    setInstalling(true);
    if (await act(() => getClient().invoke('plugins.install', { folder: path, projectId }))) setFolder('');
    setInstalling(false);
  };
  const pick = async () => {
    try {
      const { path } = await getClient().invoke('fs.pickDirectory', {});
      if (path) await install(path);
    } catch (e) {
      setError(problemText(e));
    }
  };

  return (
    <section aria-label="Installed plugins" className="plugins-page">
      <h3>Plugins</h3>
      <p className="muted">
        A plugin is a folder with <code>.claude-plugin/plugin.json</code> and its <code>skills/</code>,{' '}
        <code>commands/</code>, <code>agents/</code> and <code>hooks/hooks.json</code>. An enabled
        plugin&apos;s skills and commands are named <code>plugin:name</code>; its hooks run in every session.
      </p>
      {error ? (
        <p role="alert" className="error-text plugins-error">
          {error}
        </p>
      ) : null}
      {view?.problem ? <p className="plugins-problem">⚠ {view.problem}</p> : null}
      {view === null && !error ? <p className="muted">Loading…</p> : null}
      {view && view.plugins.length === 0 ? <p className="muted">No plugins are installed.</p> : null}
      <ul className="plugins-list">
        {view?.plugins.map((p) => (
          <PluginRow key={p.name} plugin={p} act={act} projectId={projectId} />
        ))}
      </ul>
      <form
        className="plugins-install"
        aria-label="Install a plugin"
        onSubmit={(e) => {
          e.preventDefault();
          if (folder.trim() !== '') void install(folder.trim());
        }}
      >
        <label>
          Install from folder…
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="/path/to/plugin"
            spellCheck={false}
            autoComplete="off"
          />
        </label>
        <div className="row">
          <button type="submit" disabled={installing || folder.trim() === ''}>
            {installing ? 'Installing…' : 'Install'}
          </button>
          {nativePicker ? (
            <button type="button" disabled={installing} onClick={() => void pick()}>
              Browse…
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function PluginRow({
  plugin: p,
  act,
  projectId,
}: {
  plugin: PluginView;
  act: (run: () => Promise<PluginsView>) => Promise<boolean>;
  projectId: string | undefined;
}) {
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Claude Code removes a plugin's data with it unless asked to keep it (--keep-data).
  const [keepData, setKeepData] = useState(false);
  const run = (what: () => Promise<PluginsView>) => {
    setBusy(true);
    void act(what).finally(() => setBusy(false));
  };
  return (
    <li className="plugin" aria-label={`Plugin ${p.name}`}>
      <div className="plugin-head">
        <strong className="plugin-name">{p.name}</strong>
        {p.version ? <span className="muted">v{p.version}</span> : null}
        <label className="plugin-switch">
          <input
            type="checkbox"
            role="switch"
            checked={p.enabled}
            // Not disabled while busy: a disabled control drops the keyboard focus.
            aria-busy={busy}
            aria-label={`Enabled: ${p.name}`}
            onChange={(e) => {
              if (busy) return;
              const enabled = e.target.checked;
              run(() => getClient().invoke('plugins.setEnabled', { name: p.name, enabled, projectId }));
            }}
          />
          {p.enabled ? 'Enabled' : 'Disabled'}
        </label>
        <span className="plugin-actions">
          {confirming ? (
            <>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() =>
                  run(() =>
                    getClient().invoke('plugins.remove', {
                      name: p.name,
                      keepData: p.dataFolder !== null && keepData,
                      projectId,
                    }),
                  )
                }
              >
                Remove {p.name}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button
              type="button"
              disabled={busy}
              aria-label={`Remove ${p.name}…`}
              onClick={() => setConfirming(true)}
            >
              Remove…
            </button>
          )}
        </span>
      </div>
      {confirming && p.dataFolder !== null ? (
        <label className="plugin-keep-data">
          <input type="checkbox" checked={keepData} onChange={(e) => setKeepData(e.target.checked)} />
          Keep its data folder ({p.dataFolder})
        </label>
      ) : null}
      {p.state.note !== null ? (
        <p className="plugin-state" aria-label={`Where ${p.name}'s state comes from`}>
          {p.state.source === 'carapace' ? '' : p.state.enabled ? '● ' : '○ '}
          {p.state.note}
          {p.state.source !== 'carapace' && p.state.enabled !== p.enabled
            ? ' (this outranks the switch)'
            : ''}
        </p>
      ) : null}
      {p.description ? <p className="plugin-description">{p.description}</p> : null}
      {p.problem ? <p className="plugin-error">⚠ {p.problem}</p> : null}
      <p className="muted plugin-folder">
        Installed from {p.source ?? p.folder}
        {p.source ? ' (a copy is used; install again to take in changes)' : ''}
      </p>
      {p.dataFolder !== null ? <p className="muted plugin-folder">Data: {p.dataFolder}</p> : null}
    </li>
  );
}
