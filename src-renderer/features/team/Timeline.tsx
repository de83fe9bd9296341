import { useLayoutEffect, useRef } from 'react';
import type { TeamMessage } from '@shared/domain/team';
import { useStore } from '../../stores/store';

const EMPTY: TeamMessage[] = [];

const KIND_LABEL: Record<TeamMessage['kind'], string | null> = {
  message: null,
  plan: 'plan',
  plan_approved: 'plan approved',
  plan_rejected: 'plan rejected',
};

function time(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString('en-GB', { hour12: false });
}

/** Who sent what to whom, from the mailboxes, oldest first; follows new messages like a chat. */
export function Timeline({ sessionId }: { sessionId: string }) {
  const messages = useStore((s) => s.teams[sessionId]?.messages ?? EMPTY);
  const ref = useRef<HTMLOListElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages]);
  if (messages.length === 0)
    return (
      <p className="muted team-empty">
        No messages yet. Messages between the coordinator, its workers and you appear here.
      </p>
    );
  return (
    <ol ref={ref} className="team-timeline" aria-label="Messages" tabIndex={0}>
      {messages.map((m) => (
        <li key={m.id} className={`tl-item tl-${m.kind}`} data-from={m.from} data-to={m.to}>
          <div className="tl-head">
            <span className="tl-route">
              <strong>{m.from}</strong> → <strong>{m.to}</strong>
            </span>
            {KIND_LABEL[m.kind] ? <span className="tl-kind">{KIND_LABEL[m.kind]}</span> : null}
            <span className="spacer" />
            <time className="tl-time" dateTime={m.at}>
              {time(m.at)}
            </time>
          </div>
          <p className="tl-text">{m.text}</p>
        </li>
      ))}
    </ol>
  );
}
