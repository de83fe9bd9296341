import { memo, useEffect, useState } from 'react';
import { exactSessionCost, formatSessionCost } from '@shared/domain/cost';
import type { CostKind } from '@shared/domain/session';
import { loadAgentTranscript, messageMember } from '../../ipc/actions';
import { latestText } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { AgentStateBadge, tokensText, VerdictBadge } from '../transcript/agent-views';
import { formatElapsed } from '../transcript/tool-views';
import { isLive, type Member } from './members';
import { PlanReview } from './PlanReview';
import { stuckOf, type Stuck } from './stuck';
import { useTeamView } from './team-view-store';

/** The DOM id of a card, for focus and aria-activedescendant. */
export function cardId(sessionId: string, key: string): string {
  return `member-${sessionId}-${key}`.replace(/[^\w-]/g, '_');
}

/** What an ended or idle member's line says instead of an activity. */
const ENDED: Record<Member['state'], (reason: string | null) => string> = {
  idle: () => 'waiting for work',
  working: () => '',
  waiting: () => '',
  done: () => 'finished',
  failed: (reason) => (reason === 'aborted' ? 'stopped' : reason ? `ended: ${reason}` : 'failed'),
};

function stuckText(stuck: Stuck): string {
  return stuck.kind === 'silent'
    ? `Looks stuck: no progress for ${formatElapsed(stuck.forMs)}`
    : `Looks stuck: the same call 3 times (${stuck.call.length > 80 ? `${stuck.call.slice(0, 79)}…` : stuck.call})`;
}

/** The last line of what a member is writing, while it works. */
function useLiveLine(sessionId: string, member: Member): string {
  const live = isLive(member) && !member.root;
  const loaded = useStore((s) => s.transcripts[sessionId]?.[member.agentId] !== undefined);
  // A member at work shows what it writes; its transcript is fetched once if the window lacks it.
  useEffect(() => {
    if (live && !loaded) void loadAgentTranscript(sessionId, member.agentId);
  }, [live, loaded, sessionId, member.agentId]);
  return useStore((s) => {
    if (!live) return '';
    const text = latestText(s.transcripts[sessionId]?.[member.agentId]?.items);
    return text.trim().split('\n').filter(Boolean).at(-1) ?? '';
  });
}

function MessageForm({
  sessionId,
  to,
  onDone,
}: {
  sessionId: string;
  to: string;
  onDone: (sent: boolean) => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (text.trim() === '' || busy) return;
    setBusy(true);
    const ok = await messageMember(sessionId, to, text.trim());
    setBusy(false);
    if (ok) onDone(true);
  };
  return (
    <form
      className="member-message"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onClick={(e) => e.stopPropagation()}
    >
      <textarea
        aria-label={`Message to ${to}`}
        placeholder={`Write to ${to}: it reads this at its next turn`}
        autoFocus
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onDone(false);
          }
        }}
      />
      <div className="row">
        <button type="submit" className="primary small" disabled={busy || text.trim() === ''}>
          Send
        </button>
        <button type="button" className="small" onClick={() => onDone(false)}>
          Cancel
        </button>
        <span className="muted member-keys">Enter sends · Esc cancels</span>
      </div>
    </form>
  );
}

/**
 * One member of the team: name, type, model, state, what it is doing, how long it has run, its
 * tokens and cost (own and with what it started), whether it looks stuck, and — for a worker — its
 * plan waiting for approval and a box to write to it.
 */
export const MemberCard = memo(function MemberCard({
  sessionId,
  member,
  costKind,
  focusable,
  onSelect,
  onActivate,
  onMessage,
  onStop,
  onStopConfirmed,
  onFormDone,
}: {
  sessionId: string;
  member: Member;
  costKind: CostKind;
  /** The one card reached by Tab (roving focus: the arrows move between cards). */
  focusable: boolean;
  onSelect: (key: string) => void;
  onActivate: (key: string) => void;
  onMessage: (key: string) => void;
  onStop: (key: string) => void;
  onStopConfirmed: (key: string) => void;
  onFormDone: (key: string) => void;
}) {
  const selected = useTeamView((s) => s.selected === member.key);
  const opened = useTeamView((s) => s.opened === member.key);
  const composing = useTeamView((s) => s.composing === member.key);
  const confirming = useTeamView((s) => s.confirmingStop === member.key);
  const now = useTeamView((s) => s.now);
  const limitMs = useTeamView((s) => s.stuckAfterSec * 1000);
  const line = useLiveLine(sessionId, member);
  const stuck = stuckOf(member, now, limitMs);
  const live = isLive(member);
  const started = member.startedAt ? Date.parse(member.startedAt) : NaN;
  const ended = member.endedAt ? Date.parse(member.endedAt) : now;
  const elapsed = Number.isNaN(started) ? null : formatElapsed(ended - started);
  const doing = member.activity ?? member.doing ?? (line || null);

  return (
    <div
      role="treeitem"
      id={cardId(sessionId, member.key)}
      aria-level={member.depth + 1}
      aria-selected={selected}
      aria-current={opened ? 'true' : undefined}
      aria-label={`${member.name}, ${member.agentType}, ${member.state}${stuck ? ', looks stuck' : ''}`}
      tabIndex={focusable ? 0 : -1}
      className={`member-card member-${member.state}${selected ? ' selected' : ''}${opened ? ' opened' : ''}${stuck ? ' stuck' : ''}`}
      data-member={member.name}
      data-state={member.state}
      data-stuck={stuck ? stuck.kind : undefined}
      style={{ marginLeft: `${Math.min(member.depth, 6) * 18}px` }}
      onClick={() => onActivate(member.key)}
      onFocus={(e) => {
        if (e.target === e.currentTarget) onSelect(member.key);
      }}
    >
      <div className="member-head">
        <strong className="member-name" title={member.name}>
          {member.name}
        </strong>
        {member.verdict ? <VerdictBadge verdict={member.verdict} reasons={member.verdictReasons} /> : null}
        <AgentStateBadge state={member.state} />
      </div>
      <div className="member-kind">
        <span className="agent-type">{member.agentType}</span>
        <span className="agent-model" title={member.model}>
          {member.model}
        </span>
        {member.worker && member.worker.unread > 0 ? (
          <span className="member-unread" title="Messages it has not read yet">
            {member.worker.unread} unread
          </span>
        ) : null}
        <span className="member-actions" onClick={(e) => e.stopPropagation()}>
          <button type="button" className="link" tabIndex={-1} onClick={() => onActivate(member.key)}>
            Open
          </button>
          {member.worker ? (
            <button type="button" className="link" tabIndex={-1} onClick={() => onMessage(member.key)}>
              Message
            </button>
          ) : null}
          {live ? (
            <button type="button" className="link danger" tabIndex={-1} onClick={() => onStop(member.key)}>
              Stop
            </button>
          ) : null}
        </span>
      </div>
      <div className={`member-activity${member.activity ? ' is-call' : ''}`} data-testid="member-activity">
        {doing ?? (live ? 'thinking…' : ENDED[member.state](member.endReason))}
      </div>
      <div className="member-meta">
        {elapsed ? <span title="Running time">{elapsed}</span> : null}
        <span>{tokensText(member.tokens)}</span>
        <span
          data-testid="member-cost"
          title={`${exactSessionCost(member.costUsd, costKind)} own · ${exactSessionCost(member.totalCostUsd, costKind)} with every agent it started`}
        >
          {formatSessionCost(member.costUsd, costKind)} own ·{' '}
          {formatSessionCost(member.totalCostUsd, costKind)} total
        </span>
      </div>
      {stuck ? (
        <div className="member-stuck" role="status">
          {stuckText(stuck)}
        </div>
      ) : null}
      {member.worker?.pendingPlan ? <PlanReview sessionId={sessionId} worker={member.worker} /> : null}
      {composing && member.worker ? (
        <MessageForm sessionId={sessionId} to={member.worker.name} onDone={() => onFormDone(member.key)} />
      ) : null}
      {confirming ? (
        <div
          className="member-confirm"
          role="group"
          aria-label={`Stop ${member.name}?`}
          onClick={(e) => e.stopPropagation()}
        >
          <span>
            Stop <strong>{member.name}</strong>
            {member.root ? ' (the whole turn, with every agent)' : ', with every agent it started'}?
          </span>
          <button type="button" className="stop small" onClick={() => onStopConfirmed(member.key)}>
            Stop
          </button>
          <button type="button" className="small" onClick={() => onFormDone(member.key)}>
            Cancel
          </button>
          <span className="muted member-keys">S or Enter stops · Esc cancels</span>
        </div>
      ) : null}
    </div>
  );
});
