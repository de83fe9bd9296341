import { useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BudgetKind, BudgetRequestView } from '@shared/domain/cost-report';
import { IpcRequestError } from '@shared/domain/errors';
import { formatMicros, formatUsd } from '@shared/domain/money';
import { getClient } from '../../ipc/client';
import { goToSession } from '../../ipc/attention';
import { placeOf, unknownSessionTitle } from '../../stores/attention-slice';
import { showToast, useStore } from '../../stores/store';
import './budget-requests.css';

const LIMIT_NAMES: Record<BudgetKind, string> = {
  session: 'session budget',
  projectDaily: "project's daily budget",
  daily: 'daily budget',
  maxBudgetUsd: 'run budget',
};

async function respond(requestId: string, decision: 'allow_more' | 'stop', moreUsd?: number) {
  try {
    await getClient().invoke('budgets.respond', {
      requestId,
      decision,
      ...(moreUsd !== undefined ? { moreUsd } : {}),
    });
  } catch (error) {
    showToast(
      `Answering the budget question: ${error instanceof IpcRequestError || error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * One session paused at a spending limit: "Budget reached: allow $N more / stop". The amount is
 * editable ($1 to start); Enter allows it, S stops, as the buttons do. A limit set by the managed
 * policy offers only "Stop".
 */
function BudgetRequest({ request }: { request: BudgetRequestView }) {
  const [amount, setAmount] = useState((request.suggestedMoreMicros / 1e6).toFixed(2));
  const place = useStore(
    useShallow((s) => {
      const p = placeOf(s, request.sessionId);
      return p ? { ...p } : null;
    }),
  );
  const more = Number(amount);
  const valid = amount.trim() !== '' && Number.isFinite(more) && more > 0 && more <= 1_000_000;
  const allow = () => {
    if (valid && request.canAllowMore) void respond(request.id, 'allow_more', more);
  };
  const stop = () => void respond(request.id, 'stop');
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // Keys answer this item only; the permission queue around it must not take them as well.
    e.stopPropagation();
    if (e.target instanceof HTMLButtonElement) return;
    if (e.key === 'Enter') allow();
    else if (e.key.toLowerCase() === 's' && !(e.target instanceof HTMLInputElement)) stop();
    else return;
    e.preventDefault();
  };
  const title = place?.session.title ?? unknownSessionTitle(request.sessionId);
  return (
    <li
      className="budget-request"
      role="group"
      aria-label={`Budget reached: ${title}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <span className="inbox-session">
        {place?.project ? <span className="inbox-project">{place.project.name}</span> : null}
        {place?.project ? ' · ' : null}
        {place ? (
          <button
            type="button"
            className="link"
            onClick={() => void goToSession(place.session.projectId, place.session.id)}
          >
            {title}
          </button>
        ) : (
          title
        )}
      </span>
      <span className="budget-what">
        <strong>Budget reached:</strong> {formatMicros(request.spentMicros)} of the{' '}
        {LIMIT_NAMES[request.kind]} of {formatMicros(request.limitMicros)}. The session is paused.
      </span>
      {request.canAllowMore ? null : (
        <span className="muted budget-policy">
          This limit is set by your organization&apos;s managed policy; it cannot be raised here.
        </span>
      )}
      <div className="row inbox-actions budget-actions">
        {request.canAllowMore ? (
          <>
            <label className="budget-amount">
              $
              <input
                aria-label="Amount to allow, in USD"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            </label>
            <button type="button" className="primary" disabled={!valid} onClick={allow}>
              Allow {valid ? formatUsd(more) : '$…'} more
            </button>
          </>
        ) : null}
        <button type="button" className={request.canAllowMore ? undefined : 'primary'} onClick={stop}>
          Stop
        </button>
      </div>
      <p className="muted inbox-keys">{request.canAllowMore ? 'Enter allow more · S stop' : 'S stop'}</p>
    </li>
  );
}

/** The sessions paused at a spending limit, for the Inbox. */
export function BudgetRequests({ requests }: { requests: BudgetRequestView[] }) {
  if (requests.length === 0) return null;
  return (
    <ul className="budget-requests" aria-label="Budget questions">
      {requests.map((r) => (
        <BudgetRequest key={r.id} request={r} />
      ))}
    </ul>
  );
}
