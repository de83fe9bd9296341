import { CircleCheck, Hand, Layers, LoaderCircle, OctagonAlert, type LucideIcon } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../stores/store';
import { runningTasks, taskLabel } from '../../stores/tasks-slice';
import { BADGE_LABELS, badgeFor, type Badge } from '../../stores/workspace-slice';
import './state-badge.css';

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

/**
 * A shape per state, so states differ without colour (colour-blind safe): a spinner works, a hand
 * waits for the person, an octagon failed, a tick is done but not yet seen.
 */
export const BADGE_ICONS: Record<Exclude<Badge, 'idle'>, LucideIcon> = {
  working: LoaderCircle,
  waiting: Hand,
  error: OctagonAlert,
  unseen: CircleCheck,
};

/**
 * The session's state at a glance: a coloured icon of its own shape, with the state in words as its
 * label and tooltip; then its running background tasks, if any.
 */
export function StateBadge({ sessionId }: { sessionId: string }) {
  const badge = useBadge(sessionId);
  return (
    <>
      {badge === 'idle' ? null : <StateIcon badge={badge} />}
      <TasksBadge sessionId={sessionId} />
    </>
  );
}

function StateIcon({ badge }: { badge: Exclude<Badge, 'idle'> }) {
  const Icon = BADGE_ICONS[badge];
  return (
    <span
      className={`badge badge-${badge} state-badge`}
      data-badge={badge}
      role="img"
      aria-label={BADGE_LABELS[badge]}
      title={BADGE_LABELS[badge]}
    >
      <Icon size={12} strokeWidth={2.5} aria-hidden="true" />
    </span>
  );
}

/** Background tasks (Bash, agents) still running in the session: an icon, a count, a list on hover. */
export function TasksBadge({ sessionId }: { sessionId: string }) {
  const running = useStore(useShallow((s) => runningTasks(s.tasks[sessionId]).map(taskLabel)));
  if (running.length === 0) return null;
  const label = `${running.length} background ${running.length === 1 ? 'task' : 'tasks'} running: ${running.join('; ')}`;
  return (
    <span className="tasks-badge" data-tasks={running.length} role="img" aria-label={label} title={label}>
      <Layers size={12} aria-hidden="true" />
      {running.length}
    </span>
  );
}
