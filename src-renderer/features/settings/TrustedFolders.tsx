import { useEffect, useState } from 'react';
import type { TrustedFolder } from '@shared/domain/trust';
import { checkTrust, listTrustedFolders, revokeTrust } from '../../ipc/actions';
import { useStore } from '../../stores/store';

/** Folders whose own settings were trusted (or declined), each revocable; revoking asks again next open. */
export function TrustedFolders() {
  const [folders, setFolders] = useState<TrustedFolder[] | null>(null);
  const project = useStore((s) => s.project);
  useEffect(() => {
    void listTrustedFolders().then((f) => f && setFolders(f));
  }, []);
  if (!folders) return null;
  return (
    <section aria-label="Trusted folders" className="rules">
      <h3>Trusted folders</h3>
      <p className="muted">
        A folder&apos;s own <code>.claude/settings*.json</code> and <code>.mcp.json</code> widen nothing
        (allow rules, sandbox changes, hooks, MCP servers…) until you trust them.
      </p>
      {folders.length === 0 ? <p className="muted">No decisions yet.</p> : null}
      <ul>
        {folders.map((f) => (
          <li key={f.path} className="trusted-folder">
            <code>{f.path}</code>{' '}
            <span className="muted">
              {f.accepted > 0 ? `${f.accepted} trusted` : 'not trusted'}
              {f.declined > 0 ? `, ${f.declined} declined` : ''}
            </span>{' '}
            <button
              type="button"
              className="link"
              aria-label={`Revoke trust in ${f.path}`}
              onClick={() => void revokeTrust(f.path).then((next) => next && setFolders(next))}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {project ? (
        <button
          type="button"
          onClick={() => {
            useStore.setState({ dialog: null });
            void checkTrust(project.id, true);
          }}
        >
          Review this project&apos;s settings…
        </button>
      ) : null}
    </section>
  );
}
