import { useEffect, useState } from 'react';
import type { McpProjectView } from '@shared/domain/mcp';
import { getClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { useSettingsPage } from './settings-page';

/**
 * The status bar's "MCP 2/3": connected servers of those switched on, with a warning sign when one
 * failed or waits for approval; opens Settings → MCP. Nothing shows for a project without servers.
 */
export function McpStatus({ projectId }: { projectId: string }) {
  const [view, setView] = useState<McpProjectView | null>(null);
  useEffect(() => {
    let live = true;
    const off = getClient().on('mcp.changed', (v) => {
      if (live && v.projectId === projectId) setView(v);
    });
    getClient()
      .invoke('mcp.list', { projectId })
      .then(
        (v) => live && setView(v),
        () => undefined,
      );
    return () => {
      live = false;
      off();
    };
  }, [projectId]);
  const servers = view?.servers.filter((s) => s.state !== 'disabled') ?? [];
  if (servers.length === 0) return null;
  const connected = servers.filter((s) => s.state === 'connected').length;
  const trouble = servers.filter((s) => s.state === 'failed' || s.state === 'needs-approval');
  const title = servers.map((s) => `${s.name}: ${s.state.replace('-', ' ')}`).join('\n');
  return (
    <button
      type="button"
      className="small"
      title={title}
      aria-label={`MCP servers: ${connected} of ${servers.length} connected${trouble.length > 0 ? `, ${trouble.length} need attention` : ''}`}
      onClick={() => {
        useSettingsPage.setState({ page: 'mcp' });
        useStore.setState({ dialog: 'settings' });
      }}
    >
      {trouble.length > 0 ? <span aria-hidden="true">⚠ </span> : null}MCP {connected}/{servers.length}
    </button>
  );
}
