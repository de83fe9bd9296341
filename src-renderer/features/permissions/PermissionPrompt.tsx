import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PermissionRequestView } from '@shared/domain/permissions';
import { respondPermission } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { ChangePreview } from './ChangePreview';
import { AskedBy } from './AskedBy';
import './permission-prompt.css';

function Prompt({
  request,
  queued,
  compact,
}: {
  request: PermissionRequestView;
  queued: number;
  compact: boolean;
}) {
  const [rule, setRule] = useState(request.suggestions.join('\n'));
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const answer = async (decision: 'allow_once' | 'allow_always' | 'deny') => {
    setBusy(true);
    const ok = await respondPermission({
      requestId: request.id,
      decision,
      ...(decision === 'allow_always' && rule.trim() !== '' ? { rule: rule.trim() } : {}),
      ...(decision === 'deny' && feedback.trim() !== '' ? { feedback: feedback.trim() } : {}),
    });
    if (!ok) setBusy(false);
  };
  const head = (
    <div className="permission-head">
      <strong>{request.toolName}</strong> needs your approval
      {request.agent ? (
        <>
          {' — asked by '}
          <AskedBy agent={request.agent} />
        </>
      ) : null}
      {queued > 0 ? <span className="muted"> ({queued} more waiting)</span> : null}
    </div>
  );
  // Beside the team view the full form would crowd the cards out: one line and the plain answers,
  // the rest (the change, the rule, feedback) one click away.
  if (compact && !expanded)
    return (
      <div
        role="dialog"
        aria-label="Permission request"
        className="permission-prompt compact"
        data-request={request.id}
      >
        {head}
        <code className="permission-subject-line" title={request.summary}>
          {request.summary}
        </code>
        <div className="row">
          <button
            type="button"
            className="primary small"
            disabled={busy}
            onClick={() => void answer('allow_once')}
          >
            Allow once
          </button>
          <button type="button" className="stop small" disabled={busy} onClick={() => void answer('deny')}>
            Deny
          </button>
          <button type="button" className="small" onClick={() => setExpanded(true)}>
            Review…
          </button>
        </div>
      </div>
    );
  return (
    <div
      role="dialog"
      aria-label="Permission request"
      className="permission-prompt"
      data-request={request.id}
    >
      {head}
      <pre className="permission-subject">{request.summary}</pre>
      <p className="permission-reason">{request.reason}</p>
      {request.preview ? <ChangePreview preview={request.preview} /> : null}
      <label className="permission-rule">
        Rules for “Always allow” (one per line)
        <textarea
          aria-label="Rule"
          value={rule}
          rows={Math.max(1, request.suggestions.length)}
          onChange={(e) => setRule(e.target.value)}
          placeholder="no rule suggested"
          spellCheck={false}
        />
      </label>
      <label>
        Feedback for the model (sent with Deny)
        <input
          aria-label="Feedback"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          placeholder="e.g. use the test script instead"
        />
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => void answer('allow_once')}>
          Allow once
        </button>
        <button
          type="button"
          disabled={busy || rule.trim() === ''}
          onClick={() => void answer('allow_always')}
          title={`Writes ${rule} to .claude/settings.local.json`}
        >
          Always allow
        </button>
        <button type="button" className="stop" disabled={busy} onClick={() => void answer('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}

/** The oldest pending request of one session, above its composer; the session waits, others run on. */
export function PermissionPrompt({ sessionId, compact = false }: { sessionId: string; compact?: boolean }) {
  const pending = useStore(useShallow((s) => s.pending.filter((p) => p.sessionId === sessionId)));
  const first = pending[0];
  if (!first) return null;
  return <Prompt key={first.id} request={first} queued={pending.length - 1} compact={compact} />;
}
