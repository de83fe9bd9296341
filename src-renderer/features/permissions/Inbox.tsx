import { useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { openSession, respondPermission } from '../../ipc/actions';
import { usePermissions } from '../../stores/permissions-store';
import { useWorkspace } from '../../stores/workspace-store';

/**
 * Every pending request of every session of the project, in one keyboard-driven queue:
 * ↑/↓ move, Enter allows once, A always allows (with the suggested rule), D denies.
 */
export function Inbox() {
  const sessions = useWorkspace((s) => s.sessions);
  const pending = usePermissions(
    useShallow((s) => s.pending.filter((p) => sessions[p.sessionId] !== undefined)),
  );
  const [selected, setSelected] = useState(0);
  if (pending.length === 0) return null;
  const index = Math.min(selected, pending.length - 1);
  const current = pending[index];

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!current) return;
    const key = e.key.toLowerCase();
    if (e.key === 'ArrowDown') setSelected(Math.min(index + 1, pending.length - 1));
    else if (e.key === 'ArrowUp') setSelected(Math.max(index - 1, 0));
    else if (e.key === 'Enter') void respondPermission({ requestId: current.id, decision: 'allow_once' });
    else if (key === 'a' && current.suggestions.length > 0)
      void respondPermission({ requestId: current.id, decision: 'allow_always' });
    else if (key === 'd') void respondPermission({ requestId: current.id, decision: 'deny' });
    else return;
    e.preventDefault();
  };

  return (
    <section role="region" aria-label="Inbox" className="inbox" tabIndex={0} onKeyDown={onKeyDown}>
      <h2>
        Inbox <span className="count">{pending.length}</span>
      </h2>
      <ul
        role="listbox"
        aria-label="Pending requests"
        aria-activedescendant={current ? `inbox-${current.id}` : undefined}
      >
        {pending.map((p, i) => (
          <li
            key={p.id}
            id={`inbox-${p.id}`}
            role="option"
            aria-selected={i === index}
            className={i === index ? 'selected' : ''}
            onClick={() => {
              setSelected(i);
              void openSession(p.sessionId);
            }}
          >
            <span className="inbox-session">{sessions[p.sessionId]?.title ?? 'Session'}</span>
            <span className="inbox-what">
              <strong>{p.toolName}</strong> <code>{p.summary}</code>
            </span>
          </li>
        ))}
      </ul>
      <p className="muted inbox-keys">Enter allow once · A always allow · D deny · ↑↓ move</p>
    </section>
  );
}
