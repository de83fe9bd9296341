import { useStore } from '../../stores/store';

/**
 * A warning that stays above the composer for as long as a session bypasses permissions: every tool
 * call then runs without asking, so it must never be a state one can forget about (not a toast).
 */
export function BypassBanner({ sessionId }: { sessionId: string }) {
  const bypass = useStore((s) => s.sessions[sessionId]?.permissionMode === 'bypassPermissions');
  if (!bypass) return null;
  return (
    <div className="bypass-banner" role="alert" aria-label="Bypass permissions">
      <strong>Bypass permissions is on.</strong>{' '}
      <span>
        Tool calls and commands in this session run without asking; only deny rules still stop them, and
        commands still run inside the OS sandbox where it is on.
      </span>
    </div>
  );
}
