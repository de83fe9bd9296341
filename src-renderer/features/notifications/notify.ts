import type { SessionSummary, TaskView } from '@shared/domain/session';

/** Asks for permission on a user gesture (browsers refuse requests made without one). */
export function requestNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission();
}

/** A desktop notification that a session out of view finished or failed. */
export function notifySessionEnded(session: SessionSummary, preview: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const failed = session.activity === 'error';
  const title = failed ? `${session.title} failed` : `${session.title} finished`;
  const body = failed ? (session.lastError ?? 'The session stopped with an error.') : preview.slice(0, 160);
  try {
    const n = new Notification(title, { body, tag: `carapace-${session.id}` });
    n.onclick = () => window.focus();
  } catch {
    // Some browsers only allow notifications from a service worker; the badge still shows the state.
  }
}

/** A desktop notification that a background session waits for the person (a permission request). */
export function notifySessionNeedsYou(session: SessionSummary): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(`${session.title} needs you`, {
      body: 'A permission request is waiting in the Inbox.',
      tag: `carapace-${session.id}-waiting`,
    });
    n.onclick = () => window.focus();
  } catch {
    // As above: the Inbox and the badge still show it.
  }
}

/** A desktop notification that a background agent ended (the window shows a toast as well). */
export function notifyTaskEnded(task: TaskView, how: string, session: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden)
    return;
  try {
    const n = new Notification(`Background agent ${how}`, {
      body: `${task.description} — ${session}`,
      tag: `carapace-task-${task.id}`,
    });
    n.onclick = () => window.focus();
  } catch {
    // The toast and the task list still show it.
  }
}
