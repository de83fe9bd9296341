import type { PermissionRequestView } from '@shared/domain/permissions';
import type { SessionSummary, TaskView } from '@shared/domain/session';

/** Asks for permission on a user gesture (browsers refuse requests made without one). */
export function requestNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission();
}

/** What a click on a notification does: bring the window forward, then show what it is about. */
type OnClick = () => void;

function show(title: string, body: string, tag: string, onClick?: OnClick): boolean {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      onClick?.();
      n.close();
    };
    return true;
  } catch {
    // Some browsers only allow notifications from a service worker; the badge and Inbox still show it.
    return false;
  }
}

/** A desktop notification that a session out of view finished or failed. */
export function notifySessionEnded(
  session: SessionSummary,
  preview: string,
  options: { projectName?: string; onClick?: OnClick } = {},
): void {
  const failed = session.activity === 'error';
  const title = failed ? `${session.title} failed` : `${session.title} finished`;
  const where = options.projectName ? `In ${options.projectName}. ` : '';
  const said = failed ? (session.lastError ?? 'The session stopped with an error.') : preview.slice(0, 160);
  show(title, `${where}${said}`.trim(), `carapace-${session.id}`, options.onClick);
}

/**
 * A desktop notification that a session out of view asks for approval: one per request (its tag is
 * the request's, so the system replaces rather than stacks a repeat).
 */
export function notifyApprovalNeeded(
  request: PermissionRequestView,
  session: Pick<SessionSummary, 'title'>,
  projectName: string | null,
  onClick?: OnClick,
): boolean {
  const what = `${request.toolName} ${request.summary}`.slice(0, 120);
  const where = projectName ? ` in ${projectName}` : '';
  return show(
    `${session.title} needs you`,
    `Waiting for your approval${where}: ${what}`,
    `carapace-approval-${request.id}`,
    onClick,
  );
}

/** A desktop notification that a background agent ended (the window shows a toast as well). */
export function notifyTaskEnded(task: TaskView, how: string, session: string, onClick?: OnClick): void {
  if (typeof document !== 'undefined' && !document.hidden) return;
  show(`Background agent ${how}`, `${task.description} — ${session}`, `carapace-task-${task.id}`, onClick);
}
