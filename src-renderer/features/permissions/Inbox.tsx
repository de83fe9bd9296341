import { useRef, useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PermissionRequestView } from '@shared/domain/permissions';
import { openSession, respondPermission } from '../../ipc/actions';
import { placeOf, unknownSessionTitle, type SessionPlace } from '../../stores/attention-slice';
import { useStore } from '../../stores/store';
import { goToSession } from '../../ipc/attention';
import { AskedBy } from './AskedBy';
import { BudgetRequests } from './BudgetRequests';
import { ChangePreview } from './ChangePreview';
import './inbox.css';

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

/** Where a request's session is, for its entry: "Project · Session". */
function useRequestPlace(request: PermissionRequestView): SessionPlace | null {
  return useStore(
    useShallow((s) => {
      const place = placeOf(s, request.sessionId);
      return place ? { ...place } : null;
    }),
  );
}

/**
 * The selected request in full: why it asks, and for Edit/Write the change itself; buttons for those
 * who answer with the mouse, and "Go to" to see the session (opening its project when another is on
 * screen).
 */
function Detail({ request, place }: { request: PermissionRequestView; place: SessionPlace | null }) {
  const title = place?.session.title ?? 'the session';
  const projectName = place?.project?.name;
  return (
    <div className="inbox-detail" aria-label="Selected request">
      <p className="permission-reason">{request.reason}</p>
      {request.preview ? <ChangePreview preview={request.preview} /> : null}
      <div className="row inbox-actions">
        <button
          type="button"
          className="primary"
          onClick={() => void respondPermission({ requestId: request.id, decision: 'allow_once' })}
        >
          Allow once
        </button>
        <button
          type="button"
          onClick={() => void respondPermission({ requestId: request.id, decision: 'deny' })}
        >
          Deny
        </button>
        {place ? (
          <button
            type="button"
            title={projectName ? `Show ${title} (project ${projectName})` : `Show ${title}`}
            onClick={() => void goToSession(place.session.projectId, place.session.id)}
          >
            Go to {projectName && !place.onScreen ? `${projectName} · ${title}` : title}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function SelectedDetail({ request }: { request: PermissionRequestView }) {
  return <Detail request={request} place={useRequestPlace(request)} />;
}

/** One entry of the queue: which project and session asks, and for what. */
function Entry({
  request,
  selected,
  onSelect,
}: {
  request: PermissionRequestView;
  selected: boolean;
  onSelect: () => void;
}) {
  const place = useRequestPlace(request);
  const title = place?.session.title ?? unknownSessionTitle(request.sessionId);
  return (
    <li
      id={`inbox-${request.id}`}
      role="option"
      aria-selected={selected}
      className={selected ? 'selected' : ''}
      data-project={place?.project?.id}
      onClick={() => {
        onSelect();
        // A session of the project on screen opens at once; another project's waits for "Go to",
        // so that picking an entry never swaps the whole workspace by surprise.
        if (place?.onScreen) void openSession(request.sessionId);
      }}
    >
      <span className="inbox-session">
        {place?.project ? (
          <span className={`inbox-project${place.onScreen ? '' : ' elsewhere'}`}>{place.project.name}</span>
        ) : null}
        {place?.project ? ' · ' : null}
        {place ? null : <span className="inbox-project elsewhere">Project not open · </span>}
        {title}
        {request.agent ? (
          <>
            {' · '}
            <AskedBy agent={request.agent} />
          </>
        ) : null}
      </span>
      <span className="inbox-what">
        <strong>{request.toolName}</strong> <code>{request.summary}</code>
      </span>
    </li>
  );
}

/**
 * Every pending request of every session of every open project, in one keyboard-driven queue:
 * ↑/↓ move, Enter allows once, A shows the rule "Always allow" would write and a second A (or Enter)
 * writes exactly that text, D denies.
 */
export function Inbox() {
  // Every request, also of a session whose project is no longer open (forgotten from the list): it
  // keeps running and waits for an answer, so hiding its request would leave it waiting unseen.
  const pending = useStore((s) => s.pending);
  // Sessions paused at a spending limit wait here too ("allow $N more / stop").
  const budgets = useStore((s) => s.budgetPending);
  const [selected, setSelected] = useState(0);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const region = useRef<HTMLElement>(null);
  if (pending.length === 0 && budgets.length === 0) return null;
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
    // A button's own Enter or Space clicks it; it must not also answer the request.
    if (e.target instanceof HTMLButtonElement) return;
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
        Inbox <span className="count">{pending.length + budgets.length}</span>
      </h2>
      <BudgetRequests requests={budgets} />
      {pending.length > 0 ? (
        <ul
          role="listbox"
          aria-label="Pending requests"
          aria-activedescendant={current ? `inbox-${current.id}` : undefined}
        >
          {pending.map((p, i) => (
            <Entry key={p.id} request={p} selected={i === index} onSelect={() => setSelected(i)} />
          ))}
        </ul>
      ) : null}
      {current ? <SelectedDetail request={current} /> : null}
      {pending.length === 0 ? null : open ? (
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
