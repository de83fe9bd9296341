import { useState } from 'react';
import type { TeamMember } from '@shared/domain/team';
import { decidePlan } from '../../ipc/actions';

/**
 * A worker started in plan mode sent its plan: the person approves it (the worker may then change
 * things) or rejects it, with feedback the worker reads either way.
 */
export function PlanReview({ sessionId, worker }: { sessionId: string; worker: TeamMember }) {
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const decide = async (approve: boolean) => {
    setBusy(true);
    const ok = await decidePlan(sessionId, worker.name, approve, feedback);
    setBusy(false);
    if (ok) setFeedback('');
  };
  return (
    <div
      className="plan-review"
      role="group"
      aria-label={`Plan from ${worker.name}`}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    >
      <div className="tool-label">Plan waiting for your approval</div>
      <pre className="plan-text">{worker.pendingPlan}</pre>
      <textarea
        aria-label="Feedback on the plan"
        placeholder="Feedback for the worker (optional, sent with either answer)"
        rows={2}
        value={feedback}
        onChange={(e) => setFeedback(e.target.value)}
      />
      <div className="row">
        <button type="button" className="primary small" disabled={busy} onClick={() => void decide(true)}>
          Approve plan
        </button>
        <button type="button" className="small" disabled={busy} onClick={() => void decide(false)}>
          Reject plan
        </button>
      </div>
    </div>
  );
}
