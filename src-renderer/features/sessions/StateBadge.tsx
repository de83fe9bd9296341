import { useStore } from '../../stores/store';
import { BADGE_LABELS, badgeFor, type Badge } from '../../stores/workspace-slice';

/** The badge of a session, for labels and attributes. */
export function useBadge(sessionId: string): Badge {
  return useStore((s) => {
    const session = s.sessions[sessionId];
    return session ? badgeFor(session, s.unseen[sessionId] === true) : 'idle';
  });
}

/** An accessible name with the state in words: "Fix the build, working". */
export function labelWithBadge(title: string, badge: Badge): string {
  return badge === 'idle' ? title : `${title}, ${BADGE_LABELS[badge]}`;
}

/** The session's state at a glance: a coloured dot; its words are in the owner's accessible name. */
export function StateBadge({ sessionId }: { sessionId: string }) {
  const badge = useBadge(sessionId);
  if (badge === 'idle') return null;
  return (
    <span
      className={`badge badge-${badge}`}
      data-badge={badge}
      title={BADGE_LABELS[badge]}
      aria-hidden="true"
    />
  );
}
