import { useEffect, useState } from 'react';
import type { McpProjectView, McpServerState, McpServerView } from '@shared/domain/mcp';
import { getClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { McpAddForm } from './McpAddForm';
import { loadLatest, problemText } from './page-load';
import './mcp.css';

/** State in words with an icon beside it: never colour alone. */
const STATE: Record<McpServerState, { icon: string; text: string }> = {
  connected: { icon: '●', text: 'Connected' },
  connecting: { icon: '◌', text: 'Connecting' },
  failed: { icon: '✕', text: 'Failed' },
  disabled: { icon: '○', text: 'Disabled' },
  'needs-approval': { icon: '?', text: 'Needs approval' },
};

const SCOPE: Record<McpServerView['scope'], string> = {
  project: '.mcp.json',
  user: 'user',
  local: 'local',
  cli: 'command line',
  plugin: 'plugin',
};

/**
 * Settings → MCP: each MCP server of the open project with its state, tools and logs; restart,
 * switch on/off, add. Follows `mcp.changed`, so a server that connects or fails updates in place.
 */
export function McpPage() {
  const projectId = useStore((s) => s.project?.id ?? null);
  const [view, setView] = useState<McpProjectView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (projectId === null) return;
    // Unsubscribed in the cleanup, so no change reaches a page that moved on.
    const off = getClient().on('mcp.changed', (v) => {
      if (v.projectId === projectId) setView(v);
    });
    const stop = loadLatest(getClient().invoke('mcp.list', { projectId }), setView, setError);
    return () => {
      stop();
      off();
    };
  }, [projectId]);

  if (projectId === null)
    return (
      <section aria-label="MCP servers" className="mcp-page">
        <h3>MCP servers</h3>
        <p className="muted">Open a project to see its MCP servers.</p>
      </section>
    );

  /** Runs one change; its answer replaces the list, its failure is shown above it. */
  const act = async (run: () => Promise<McpProjectView>): Promise<boolean> => {
    try {
      setView(await run());
      setError(null);
      return true;
    } catch (e) {
      setError(problemText(e));
      return false;
    }
  };

  return (
    <section aria-label="MCP servers" className="mcp-page">
      <h3>MCP servers</h3>
      <p className="muted">
        Servers from the project&apos;s <code>.mcp.json</code> start only once you approve them (trust the
        folder, or switch one on here). Their tools reach the model as <code>mcp__server__tool</code>.
      </p>
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
      {view?.problems.map((p) => (
        <p key={p} className="mcp-problem">
          <span aria-hidden="true">⚠ </span>
          {p}
        </p>
      ))}
      {view === null ? <p className="muted">Loading…</p> : null}
      {view && view.servers.length === 0 ? <p className="muted">No MCP servers are configured.</p> : null}
      <ul className="mcp-servers">
        {view?.servers.map((s) => (
          <McpServerRow key={s.name} server={s} projectId={projectId} act={act} />
        ))}
      </ul>
      <McpAddForm
        onAdd={(name, scope, server) =>
          act(() => getClient().invoke('mcp.add', { projectId, name, scope, server }))
        }
      />
    </section>
  );
}

function McpServerRow({
  server: s,
  projectId,
  act,
}: {
  server: McpServerView;
  projectId: string;
  act: (run: () => Promise<McpProjectView>) => Promise<boolean>;
}) {
  const [logs, setLogs] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const showingLogs = logs !== null;
  // An open log follows the server: read again whenever its state changes.
  useEffect(() => {
    if (!showingLogs) return;
    let live = true;
    getClient()
      .invoke('mcp.logs', { projectId, name: s.name })
      .then(
        (lines) => live && setLogs(lines),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [showingLogs, s.state, s.name, projectId]);
  const state = STATE[s.state];
  const run = (what: () => Promise<McpProjectView>) => {
    setBusy(true);
    void act(what).finally(() => setBusy(false));
  };
  const ref = { projectId, name: s.name };
  const on = s.state !== 'disabled' && s.state !== 'needs-approval';
  // Switching on a server that waits for approval approves it (for this folder).
  const switchLabel = on ? 'Disable' : s.state === 'needs-approval' ? 'Approve' : 'Enable';
  return (
    <li className={`mcp-server state-${s.state}`} aria-label={`MCP server ${s.name}`}>
      <div className="mcp-server-head">
        <strong className="mcp-name">{s.name}</strong>
        <span className="mcp-state" role="status" aria-label={`${s.name}: ${state.text}`}>
          <span aria-hidden="true" className="mcp-state-icon">
            {state.icon}
          </span>{' '}
          {busy && s.state !== 'connecting' ? 'Working…' : state.text}
        </span>
        <span className="muted mcp-where">
          {s.transport} · {SCOPE[s.scope]}
        </span>
        <span className="mcp-actions">
          <button
            type="button"
            disabled={busy || !on}
            onClick={() => run(() => getClient().invoke('mcp.restart', ref))}
            aria-label={`Restart ${s.name}`}
          >
            Restart
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => run(() => getClient().invoke('mcp.setEnabled', { ...ref, enabled: !on }))}
            aria-label={`${switchLabel} ${s.name}`}
          >
            {switchLabel}
          </button>
          <button
            type="button"
            aria-expanded={logs !== null}
            aria-label={`Logs of ${s.name}`}
            onClick={() => {
              setLogs(logs === null ? [] : null);
            }}
          >
            Logs
          </button>
        </span>
      </div>
      {s.error ? <p className="mcp-error">{s.error}</p> : null}
      {s.configFile ? <p className="muted mcp-file">{s.configFile}</p> : null}
      {s.tools.length > 0 ? (
        <details className="mcp-tools">
          <summary>
            {s.tools.length} {s.tools.length === 1 ? 'tool' : 'tools'}
            {s.resources > 0 ? `, ${s.resources} resources` : ''}
          </summary>
          <ul>
            {s.tools.map((t) => (
              <li key={t.fullName}>
                <code>{t.fullName}</code> <span className="muted">{t.description}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {logs !== null ? (
        <pre className="mcp-logs" tabIndex={0} aria-label={`Log of ${s.name}`}>
          {logs.length > 0 ? logs.join('\n') : '(nothing logged)'}
        </pre>
      ) : null}
    </li>
  );
}
