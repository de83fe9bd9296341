import { useRef, useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PermissionRequestView } from '@shared/domain/permissions';
import { openSession, respondPermission } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { AskedBy } from './AskedBy';
import { ChangePreview } from './ChangePreview';

/** "Always allow" in two steps: the rule is shown (and editable) first; only a second key writes it. */
interface Confirming {
  requestId: string;
  rule: string;
}

function AlwaysAllowRule({
  confirming,
  onChange,
  onConfirm,
  onCancel,
}: {
  confirming: Confirming;
  onChange: (rule: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const empty = confirming.rule.trim() === '';
  return (
    <div className="inbox-confirm" role="group" aria-label="Always allow rule">
      <label>
        Always allow writes this to .claude/settings.local.json (one rule a line):
        <textarea
          aria-label="Rule to write"
          value={confirming.rule}
          rows={Math.max(1, confirming.rule.split('\n').length)}
          placeholder="no rule suggested: type one"
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={empty} onClick={onConfirm}>
          Write rule and allow
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <p className="muted inbox-keys">A or Enter writes it · Esc cancels</p>
    </div>
  );
}

/** The selected request in full: why it asks, and for Edit/Write the change itself. */
function Detail({ request }: { request: PermissionRequestView }) {
  return (
    <div className="inbox-detail" aria-label="Selected request">
      <p className="permission-reason">{request.reason}</p>
      {request.preview ? <ChangePreview preview={request.preview} /> : null}
    </div>
  );
}

/**
 * Every pending request of every session of the project, in one keyboard-driven queue:
 * ↑/↓ move, Enter allows once, A shows the rule "Always allow" would write and a second A (or Enter)
 * writes exactly that text, D denies.
 */
export function Inbox() {
  const sessions = useStore((s) => s.sessions);
  const pending = useStore(useShallow((s) => s.pending.filter((p) => sessions[p.sessionId] !== undefined)));
  const [selected, setSelected] = useState(0);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const region = useRef<HTMLElement>(null);
  if (pending.length === 0) return null;
  const index = Math.min(selected, pending.length - 1);
  const current = pending[index];
  // A confirmation belongs to one request: moving on (or the request going away) drops it.
  const open = current && confirming?.requestId === current.id ? confirming : null;

  const cancel = () => {
    setConfirming(null);
    region.current?.focus();
  };
  const writeRule = () => {
    if (!current || !open || open.rule.trim() === '') return;
    // The rule sent is the text on screen, nothing else.
    void respondPermission({ requestId: current.id, decision: 'allow_always', rule: open.rule.trim() });
    setConfirming(null);
    region.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!current) return;
    if (e.target instanceof HTMLTextAreaElement) {
      // Typing in the rule: Enter writes it (Shift+Enter for another line), Esc cancels.
      if (e.key === 'Enter' && !e.shiftKey) writeRule();
      else if (e.key === 'Escape') cancel();
      else return;
      e.preventDefault();
      return;
    }
    const key = e.key.toLowerCase();
    if (e.key === 'ArrowDown') {
      setSelected(Math.min(index + 1, pending.length - 1));
      setConfirming(null);
    } else if (e.key === 'ArrowUp') {
      setSelected(Math.max(index - 1, 0));
      setConfirming(null);
    } else if (e.key === 'Escape' && open) setConfirming(null);
    else if (open && (e.key === 'Enter' || key === 'a')) writeRule();
    else if (e.key === 'Enter') void respondPermission({ requestId: current.id, decision: 'allow_once' });
    else if (key === 'a') setConfirming({ requestId: current.id, rule: current.suggestions.join('\n') });
    else if (key === 'd') void respondPermission({ requestId: current.id, decision: 'deny' });
    else return;
    e.preventDefault();
  };

  return (
    <section
      ref={region}
      role="region"
      aria-label="Inbox"
      className="inbox"
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
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
            <span className="inbox-session">
              {sessions[p.sessionId]?.title ?? 'Session'}
              {p.agent ? (
                <>
                  {' · '}
                  <AskedBy agent={p.agent} />
                </>
              ) : null}
            </span>
            <span className="inbox-what">
              <strong>{p.toolName}</strong> <code>{p.summary}</code>
            </span>
          </li>
        ))}
      </ul>
      {current ? <Detail request={current} /> : null}
      {open ? (
        <AlwaysAllowRule
          confirming={open}
          onChange={(rule) => setConfirming({ requestId: open.requestId, rule })}
          onConfirm={writeRule}
          onCancel={cancel}
        />
      ) : (
        <p className="muted inbox-keys">Enter allow once · A always allow… · D deny · ↑↓ move</p>
      )}
    </section>
  );
}
