import type { Decider } from '../permissions/handlers';
import type { HookRunner } from './dispatch';
import { sessionEndHook, sessionStartHook } from './wire';

/** How long a session sits idle after a turn before the idle Notification (Claude Code: 60 s). */
export const IDLE_NOTIFY_MS = 60_000;
/** SessionEnd hooks share this budget (Claude Code's 1.5 s), raised by a hook's own longer timeout up to 60 s. */
export const SESSION_END_BUDGET_MS = 1_500;

export type NotificationType = 'permission_prompt' | 'idle_prompt';

/**
 * Notification hooks (matched on the notification type), when the harness would notify the person.
 * Started and not waited for: a notification decides nothing, and the session must not wait on it.
 */
export function notificationHook(
  runner: HookRunner,
  type: NotificationType,
  message: string,
  title: string,
  onMessages?: (messages: string[]) => void,
): void {
  if (!runner.has('Notification')) return;
  void runner
    .run('Notification', { matchValue: type }, { message, title, notification_type: type })
    .then((out) => {
      if (out.messages.length > 0) onMessages?.(out.messages);
    })
    .catch(() => undefined);
}

/**
 * The hook events of one app session's life: SessionStart as it is created or opened again (its
 * context goes with the next prompt), SessionEnd as it closes, and the Notification hooks for a
 * permission prompt waiting and for a session idle after its turn.
 */
export class SessionHookEvents {
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Between a turn's end and the next turn's start: the idle notification is armed once per spell. */
  private idle = false;
  private ended = false;

  constructor(
    private readonly runner: HookRunner,
    private readonly o: {
      /** Messages for the person (systemMessage, a hook's error). */
      notify: (messages: string[]) => void;
      idleMs?: number;
    },
  ) {}

  /** SessionStart (`startup` for a new session, `resume` for one opened again). */
  start(source: 'startup' | 'resume' | 'clear'): void {
    if (!this.runner.has('SessionStart')) return;
    const run = sessionStartHook(this.runner, source).then((messages) => {
      if (messages.length > 0) this.o.notify(messages);
    });
    this.runner.whileStarting(run);
  }

  /** SessionEnd, waited for within its budget (a longer hook timeout raises it, to 60 s at most). */
  async end(reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other'): Promise<void> {
    this.turnStarted();
    if (this.ended) return;
    this.ended = true;
    if (!this.runner.has('SessionEnd')) return;
    const ms = Math.min(
      60_000,
      Math.max(SESSION_END_BUDGET_MS, this.runner.longestOwnTimeoutMs('SessionEnd')),
    );
    const budget = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
    });
    await Promise.race([
      sessionEndHook(this.runner, reason).then((m) => {
        if (m.length > 0) this.o.notify(m);
      }),
      budget,
    ]).catch(() => undefined);
  }

  /** The person's side of the permission race, announcing each question to Notification hooks first. */
  askUser(decider: Decider): Decider {
    return (request, signal) => {
      notificationHook(
        this.runner,
        'permission_prompt',
        `Claude needs your permission to use ${request.toolName}`,
        'Permission needed',
        this.o.notify,
      );
      return decider(request, signal);
    };
  }

  /** A turn starts: the session is not idle. */
  turnStarted(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.idle = false;
  }

  /** A turn ended: if nothing starts for a while, the idle Notification runs (once per idle spell). */
  turnEnded(): void {
    if (this.idle || this.ended) return;
    this.idle = true;
    if (!this.runner.has('Notification')) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      notificationHook(
        this.runner,
        'idle_prompt',
        'Claude is waiting for your input',
        'Waiting for input',
        this.o.notify,
      );
    }, this.o.idleMs ?? IDLE_NOTIFY_MS);
    this.idleTimer.unref();
  }
}
