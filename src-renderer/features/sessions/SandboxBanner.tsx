import { useStore } from '../../stores/store';
import { useProjectQuery } from './useProjectQuery';

/**
 * Says so, visibly, when a project's commands run without the OS sandbox (switched off in its
 * settings, or unable to start on this machine): then every command that is not read-only is asked.
 * Re-checked when the window regains focus, since settings files are edited outside the app.
 */
export function SandboxBanner() {
  const projectId = useStore((s) => s.project?.id ?? null);
  const view = useProjectQuery('sandbox.status', projectId);
  if (!view || (view.enabled && view.available)) return null;
  const why = view.enabled
    ? `Commands run without the OS sandbox: ${view.reason ?? 'it cannot start here'}.`
    : "The OS sandbox is switched off in this project's settings.";
  return (
    <div className="sandbox-banner" role="status" aria-label="Sandbox">
      <strong>No sandbox.</strong> {why} Every command that is not read-only asks first, unless a session
      bypasses permissions.
    </div>
  );
}
