import type { TeamMessage, TeamView } from '@shared/domain/team';
import { MAX_UNATTENDED_MAIL_TURNS, type TeamManager } from '../harness/teams/team-manager';
import type { CoordinatorSetup } from '../harness/teams/types';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import type { LiveSession } from './live-session';

export interface SessionTeamsDeps {
  hub: EventHub;
  logger: Logger;
  /** The loaded session, if it is. */
  live(sessionId: string): LiveSession | undefined;
  /** Why no turn may start in the session now (an unreadable managed policy), or null. */
  blocked(sessionId: string): string | null;
}

/**
 * The teams of the workspace's coordinator sessions: what they tell the window (`teams.*` events,
 * the workers' cards following their states), the person's part (messages, plan decisions), and
 * waking an idle coordinator when its team writes to it.
 */
export class SessionTeams {
  private readonly teams = new Map<string, TeamManager>();
  /** Coordinators the person stopped: their team's mail waits until the person writes to them. */
  private readonly paused = new Set<string>();
  private closing = false;

  constructor(private readonly deps: SessionTeamsDeps) {}

  /** The coordinator options for a session's runtime. */
  setup(sessionId: string): CoordinatorSetup {
    return {
      events: {
        onChange: (team) => {
          this.deps.hub.emit('teams.changed', { team });
          const session = this.deps.live(sessionId);
          if (session) syncCards(session, team);
        },
        onMessage: (message) => this.deps.hub.emit('teams.message', { sessionId, message }),
        onCoordinatorMail: () => this.wake(sessionId),
      },
    };
  }

  /** Keeps a built session's team; shows the person what could not be read back from disk. */
  adopt(session: LiveSession, team: TeamManager): void {
    this.teams.set(session.id, team);
    for (const problem of team.problems) session.notify('warning', `Team: ${problem}`, 'team_file');
    syncCards(session, team.view());
  }

  /** A session's team; an empty one for sessions that have none. */
  view(sessionId: string): TeamView {
    return this.teams.get(sessionId)?.view() ?? { sessionId, members: [], messages: [] };
  }

  /** The person writes into a worker's mailbox; the worker takes it up at once if it is idle. */
  message(sessionId: string, to: string, text: string): TeamMessage {
    return this.runnable(sessionId).message(to, text);
  }

  decidePlan(sessionId: string, member: string, approve: boolean, feedback: string): TeamMessage {
    return this.runnable(sessionId).decidePlan(member, approve, feedback, 'person');
  }

  /**
   * Starts a coordinator turn with its team's mail if the coordinator is idle (soon, not now: the
   * turn that just ended must have let go of the session first). Mail that comes during a turn is
   * taken up by that run before it ends.
   */
  wake(sessionId: string): void {
    setImmediate(() => {
      if (this.closing || this.paused.has(sessionId)) return;
      const session = this.deps.live(sessionId);
      const team = this.teams.get(sessionId);
      if (!session || !team || session.busy || !team.hasCoordinatorMail()) return;
      if (team.mailHeld()) {
        // Said once: the mail waits until the person writes (their message takes it up).
        this.paused.add(sessionId);
        session.notify(
          'warning',
          `The coordinator has taken up its team's messages ${MAX_UNATTENDED_MAIL_TURNS} times without you. It now waits for you: write to it to let it go on (your message brings the waiting ones with it).`,
          'team_paused',
        );
        return;
      }
      const blocked = this.deps.blocked(sessionId);
      if (blocked !== null) {
        this.deps.logger.warn(`Session ${sessionId}: the team's mail waits: ${blocked}`);
        return;
      }
      const mail = team.takeCoordinatorMail();
      if (mail !== null) session.send(mail);
    });
  }

  /** The person stopped the coordinator: it is not woken again until they write to it. */
  pause(sessionId: string): void {
    if (this.teams.has(sessionId)) this.paused.add(sessionId);
  }

  /** The person wrote to the coordinator: its team's mail starts its turns again. */
  resume(sessionId: string): void {
    this.paused.delete(sessionId);
    this.teams.get(sessionId)?.personWrote();
  }

  /**
   * The session left memory for good (archived, deleted): its team's workers end and it is let go.
   * Its files stay with the session's, so the team comes back if the session does.
   */
  forget(sessionId: string): void {
    const team = this.teams.get(sessionId);
    this.teams.delete(sessionId);
    this.paused.delete(sessionId);
    team?.close().catch((error: unknown) => {
      this.deps.logger.warn(`Closing the team of session ${sessionId}: ${(error as Error).message}`);
    });
  }

  /** Stops every worker (the teams stay on disk as they are: they come back when reopened). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.teams.values()].map((t) => t.close()));
  }

  private runnable(sessionId: string): TeamManager {
    const team = this.teams.get(sessionId);
    if (!team) throw new AppError('CONFLICT', 'This session is not a coordinator session: it has no team.');
    const blocked = this.deps.blocked(sessionId);
    if (blocked !== null) throw new AppError('CORRUPT_DATA', blocked);
    return team;
  }
}

/** The workers' cards show their team states (idle between turns, waiting on a plan, ended). */
function syncCards(session: LiveSession, team: TeamView): void {
  for (const m of team.members) session.agents.setState(m.agentId, m.state);
}
