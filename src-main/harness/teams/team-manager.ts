import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TeamMember, TeamMessage, TeamView } from '@shared/domain/team';
import { AppError, describeError } from '../../platform/errors';
import type { AgentEvent, AgentInfo } from '../events/agent-event';
import type { TaskManager } from '../tasks/task-manager';
import type { CoordinatorTeam, TeammateTeam, WorkerSpec } from '../tools/tool';
import { coordinatorPrompt } from './mail-format';
import { Mailbox, type Mail } from './mailbox';
import { runAsMember } from './member-context';
import { sameName } from './names';
import { Roster, type MemberRecord } from './roster';
import type { BuiltWorker, TeamEvents, WorkerFactory } from './types';
import { runWorkerTurn, type TurnOutcome } from './worker-turn';
import { checkSpecs } from './worker-specs';
import { teamPermissionHandler } from './team-handler';
import { memberFrom, memberView, type Member } from './member';

/** Messages the team view's timeline carries. */
const TIMELINE = 300;
/**
 * Characters of one message the person's view carries. The view goes to the window whole at every
 * change of the team, and a message may be 100,000 characters: 300 of those would be 30 MB a change.
 * The agents always read the whole message; the window shows its start and says where the rest is.
 */
export const VIEW_MESSAGE_CHARS = 4000;

/** A message as the person's view shows it: long text cut, with a note of where the rest is. */
function shown(m: TeamMessage): TeamMessage {
  if (m.text.length <= VIEW_MESSAGE_CHARS) return m;
  const where =
    m.from === 'coordinator' || m.from === 'person' ? `${m.to}'s transcript` : `${m.from}'s transcript`;
  return {
    ...m,
    text: `${m.text.slice(0, VIEW_MESSAGE_CHARS)}… [${m.text.length - VIEW_MESSAGE_CHARS} more characters; the whole message is in ${where}]`,
  };
}

/**
 * Coordinator turns its team's mail may start before the person writes again. Each is a paid turn
 * nobody asked for: a coordinator and a worker that keep writing to each other would otherwise go on
 * (and cost) until someone noticed, in print mode one run after another and in the app in runs the
 * workspace starts by itself when mail comes.
 */
export const MAX_UNATTENDED_MAIL_TURNS = 100;

const now = () => new Date().toISOString();

export interface TeamSetup {
  sessionId: string;
  /** The coordinator's agent id (the session's). */
  coordinatorId: string;
  /** The session's folder: the team lives in its `team/`, workers' transcripts in `subagents/`. */
  sessionDir: string;
  workers: WorkerFactory;
  /** Every event of every worker and of the agents they start (cost, cards, transcripts). */
  onAgentEvent: (e: AgentEvent) => void;
  /** The session's running agents by id, so the person can stop one worker alone. */
  agentStops?: Map<string, AbortController> | undefined;
  events?: TeamEvents | undefined;
  /** The session's task list: each worker is listed there as an `in_process_teammate` task. */
  tasks?: (() => TaskManager | undefined) | undefined;
}

/**
 * One coordinator session's team of in-process workers: the roster, one mailbox per member and one
 * for the coordinator (JSONL under `<sessionDir>/team/`, each message on disk before anyone hears of
 * it), and each worker's turns. A worker runs a turn whenever it is idle and has mail; its final text
 * goes back to the coordinator's mailbox. Workers run at once, each in its own async context
 * (`currentMember()`), so what they do is attributed to the right one.
 */
export class TeamManager {
  private readonly members: Member[] = [];
  private readonly coordinatorBox: Mailbox;
  private readonly roster: Roster;
  private readonly timeline: Mail[] = [];
  private seq = 0;
  private closed = false;
  /** Coordinator turns taken up for mail alone since the person last wrote. */
  private unattended = 0;
  private waiters = new Set<() => void>();
  /** The coordinator's structured final output (SyntheticOutput), if it gave one. */
  output: Record<string, unknown> | null = null;
  /** What could not be read back from disk, for the person. */
  readonly problems: string[] = [];
  readonly dir: string;

  constructor(private readonly setup: TeamSetup) {
    this.dir = path.join(setup.sessionDir, 'team');
    this.roster = new Roster(path.join(this.dir, 'team.jsonl'));
    this.coordinatorBox = new Mailbox(
      path.join(this.dir, 'mail', 'coordinator.jsonl'),
      "the coordinator's mailbox",
    );
    const loaded = this.roster.load();
    this.problems.push(...loaded.problems, ...this.coordinatorBox.problems);
    for (const record of loaded.members) {
      // A worker mid-turn when the process ended comes back idle; its transcript is taken up when it next works.
      const member = memberFrom(record, this.dir);
      this.problems.push(...member.mailbox.problems);
      this.members.push(member);
    }
    for (const box of [this.coordinatorBox, ...this.members.map((m) => m.mailbox)])
      for (const mail of box.all()) this.timeline.push(mail);
    this.timeline.sort((a, b) => a.seq - b.seq);
    this.seq = this.timeline.at(-1)?.seq ?? 0;
  }

  // ---- what the team looks like ----

  view(): TeamView {
    return {
      sessionId: this.setup.sessionId,
      members: this.members.map((m) => memberView(m)),
      messages: this.timeline.slice(-TIMELINE).map((m) => shown(m.message)),
    };
  }

  /** The active (not ended) worker called `name`, or a clear error naming those there are. */
  member(name: string): Member {
    const found = this.members.find((m) => !m.ended && sameName(m.name, name));
    if (found) return found;
    const active = this.members.filter((m) => !m.ended).map((m) => m.name);
    const ended = this.members.some((m) => m.ended && sameName(m.name, name));
    throw new AppError(
      'NOT_FOUND',
      `${ended ? `Worker "${name}" has ended` : `There is no worker named "${name}"`}. ${
        active.length > 0
          ? `Workers: ${active.join(', ')}.`
          : 'The team has no workers; create them with TeamCreate.'
      }`,
    );
  }

  /** Whether a worker is working or will be (it has mail): a run waiting for the team keeps waiting. */
  busy(): boolean {
    return this.members.some((m) => !m.ended && (m.turn !== null || m.mailbox.unread().length > 0));
  }

  hasCoordinatorMail(): boolean {
    return this.coordinatorBox.unread().length > 0;
  }

  /**
   * Whether mail waits that the coordinator may not take up by itself any more: it has had
   * MAX_UNATTENDED_MAIL_TURNS turns of mail since the person last wrote.
   */
  mailHeld(): boolean {
    return this.unattended >= MAX_UNATTENDED_MAIL_TURNS && this.hasCoordinatorMail();
  }

  /** The person wrote to the coordinator: its team's mail may start its turns again. */
  personWrote(): void {
    this.unattended = 0;
  }

  /**
   * The coordinator's unread mail as one prompt (marked read), or null when there is none or it is
   * held for the person (see mailHeld).
   */
  takeCoordinatorMail(): string | null {
    if (this.closed || this.unattended >= MAX_UNATTENDED_MAIL_TURNS) return null;
    const mail = this.coordinatorBox.unread();
    if (mail.length === 0) return null;
    this.coordinatorBox.markRead(mail.map((m) => m.message.id));
    this.unattended++;
    this.changed();
    return coordinatorPrompt(mail.map((m) => m.message));
  }

  /** Resolves at the next change of the team (a message, a state), or when `signal` aborts. */
  nextChange(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted || this.closed) return resolve();
      const done = () => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  // ---- what the coordinator (and the person) do ----

  /** Creates workers; all are checked first, so a bad one creates none. */
  create(specs: readonly WorkerSpec[]): TeamMember[] {
    this.open();
    const active = this.members.filter((m) => !m.ended).map((m) => m.name);
    checkSpecs(
      specs,
      active,
      this.setup.workers.agentTypes().map((t) => t.name),
    );
    return specs.map((spec) => {
      const record: MemberRecord = {
        agentId: `agent-${randomBytes(8).toString('hex')}`,
        name: spec.name,
        agentType: spec.agentType,
        model: spec.model ?? '',
        instructions: spec.instructions,
        planMode: spec.planMode,
        createdAt: now(),
        ended: false,
        pendingPlan: null,
        planApproved: false,
      };
      const member = memberFrom(record, this.dir);
      this.listTask(member);
      // Built now: a type that does not fit fails here, before anything is written.
      member.worker = this.build(member, false, spec.model);
      member.model = member.worker.model;
      this.roster.append({
        type: 'member',
        agentId: member.agentId,
        name: member.name,
        agentType: member.agentType,
        model: member.model,
        instructions: member.instructions,
        planMode: member.planMode,
        createdAt: member.createdAt,
      });
      this.members.push(member);
      const info: AgentInfo = {
        agentId: member.agentId,
        parentId: this.setup.coordinatorId,
        toolUseId: null,
        name: member.name,
        agentType: member.agentType,
        model: member.model,
        startedAt: member.createdAt,
        transcriptFile: this.transcriptOf(member),
      };
      this.setup.onAgentEvent({
        type: 'agent_started',
        info,
        agentId: member.agentId,
        parentId: this.setup.coordinatorId,
      });
      this.changed();
      return memberView(member);
    });
  }

  /** Delivers `text` to a worker's mailbox (every active worker's for `*`) and wakes it. */
  send(to: string, text: string, from: 'coordinator' | 'person' = 'coordinator'): TeamMessage[] {
    this.open();
    const targets = to.trim() === '*' ? this.members.filter((m) => !m.ended) : [this.member(to)];
    if (targets.length === 0)
      throw new AppError('NOT_FOUND', 'The team has no workers to write to; create them with TeamCreate.');
    return targets.map((m) => {
      const message = this.deliver(m.mailbox, { from, to: m.name, text, kind: 'message' });
      this.pump(m);
      return message;
    });
  }

  /** The person writes to one worker. */
  message(to: string, text: string): TeamMessage {
    if (to.trim() === '*') throw new AppError('INVALID_INPUT', 'Write to one worker at a time.');
    const [message] = this.send(to, text, 'person');
    if (!message) throw new AppError('NOT_FOUND', `There is no worker named "${to}".`);
    return message;
  }

  /** Approves a worker's plan (it leaves plan mode) or rejects it with feedback (it stays). */
  decidePlan(name: string, approve: boolean, feedback: string, by: 'coordinator' | 'person'): TeamMessage {
    this.open();
    const m = this.member(name);
    if (m.pendingPlan === null)
      throw new AppError('CONFLICT', `Worker "${m.name}" has no plan waiting for a decision.`);
    if (!approve && feedback.trim() === '')
      throw new AppError(
        'INVALID_INPUT',
        'Say why the plan is rejected: the worker revises it from your feedback.',
      );
    this.roster.append({ type: 'plan_decided', agentId: m.agentId, approve, by, at: now() });
    m.pendingPlan = null;
    if (approve) m.planApproved = true;
    // The plan in the coordinator's mailbox is settled: it must not come up again as a question.
    this.coordinatorBox.markRead(
      this.coordinatorBox
        .unread()
        .filter((x) => x.message.kind === 'plan' && x.message.from === m.name)
        .map((x) => x.message.id),
    );
    const message = this.deliver(m.mailbox, {
      from: by,
      to: m.name,
      text: feedback.trim() || (approve ? 'Plan approved.' : ''),
      kind: approve ? 'plan_approved' : 'plan_rejected',
    });
    if (by === 'person')
      this.deliver(this.coordinatorBox, {
        from: 'person',
        to: 'coordinator',
        text: `I ${approve ? 'approved' : 'rejected'} ${m.name}'s plan.${feedback.trim() ? ` Feedback: ${feedback.trim()}` : ''}`,
        kind: 'message',
      });
    this.pump(m);
    return message;
  }

  /** Ends workers (all for `*`): each stops what it is doing and takes no more mail. */
  async remove(names: readonly string[]): Promise<string[]> {
    this.open();
    const targets = names.some((n) => n.trim() === '*')
      ? this.members.filter((m) => !m.ended)
      : [...new Set(names.map((n) => this.member(n)))];
    for (const m of targets) {
      m.ended = true;
      this.roster.append({ type: 'ended', agentId: m.agentId, at: now() });
      m.stop?.abort();
    }
    await Promise.allSettled(targets.flatMap((m) => (m.turn ? [m.turn] : [])));
    await Promise.allSettled(targets.flatMap((m) => (m.worker ? [m.worker.close()] : [])));
    for (const m of targets) {
      m.worker = null;
      m.task?.end(m.failed ? 'failed' : 'completed');
      this.setup.onAgentEvent({
        type: 'agent_ended',
        outcome: { reason: m.failed ? 'error' : 'completed', text: '', endedAt: now() },
        agentId: m.agentId,
        parentId: this.setup.coordinatorId,
      });
    }
    this.changed();
    return targets.map((m) => m.name);
  }

  /**
   * Waits until each named worker has written to the coordinator after message `afterSeq` (or has
   * ended), then takes those replies as read and returns them, oldest first.
   */
  async waitForReplies(
    names: readonly string[],
    afterSeq: number,
    signal: AbortSignal,
  ): Promise<TeamMessage[]> {
    const targets = names.some((n) => n.trim() === '*')
      ? this.members.filter((m) => !m.ended)
      : names.map((n) => this.member(n));
    const replies = () =>
      this.coordinatorBox
        .unread()
        .filter((x) => x.seq > afterSeq && targets.some((m) => m.name === x.message.from));
    const answered = () => targets.every((m) => m.ended || replies().some((x) => x.message.from === m.name));
    while (!answered() && !signal.aborted && !this.closed) await this.nextChange(signal);
    const got = replies();
    this.coordinatorBox.markRead(got.map((x) => x.message.id));
    this.changed();
    return got.map((x) => x.message);
  }

  /** Starts every idle worker that has mail (mail left from before a restart waits for this). */
  wake(): void {
    for (const m of this.members) this.pump(m);
  }

  /** The capability the coordinator's tools get. */
  coordinator(): CoordinatorTeam {
    return {
      role: 'coordinator',
      agentTypes: () => this.setup.workers.agentTypes(),
      members: () => this.view().members,
      create: (specs) => this.create(specs),
      remove: (names) => this.remove(names),
      send: (to, text) => this.send(to, text, 'coordinator'),
      waitForReplies: (names, afterSeq, signal) => this.waitForReplies(names, afterSeq, signal),
      lastSeq: () => this.seq,
      decidePlan: (name, approve, feedback) => this.decidePlan(name, approve, feedback, 'coordinator'),
      setOutput: (value) => {
        this.output = value;
      },
    };
  }

  /** Stops every worker's turn and closes their runtimes; the team stays on disk as it is. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const m of this.members) m.stop?.abort();
    await Promise.allSettled(this.members.flatMap((m) => (m.turn ? [m.turn] : [])));
    await Promise.allSettled(this.members.flatMap((m) => (m.worker ? [m.worker.close()] : [])));
    for (const m of this.members) {
      m.worker = null;
      // The task list ends with the process; the worker itself stays on the roster for the next one.
      m.task?.end('killed');
    }
    for (const wake of [...this.waiters]) wake();
  }

  // ---- inside ----

  private open(): void {
    if (this.closed) throw new AppError('CONFLICT', 'The team has been closed.');
  }

  private transcriptOf(m: Member): string {
    // Beside the session's sub-agents: their cards and transcripts come back the same way.
    return path.join(this.setup.sessionDir, 'subagents', `${m.agentId}.jsonl`);
  }

  private build(m: Member, resume: boolean, model: string | undefined): BuiltWorker {
    return this.setup.workers.build({
      agentId: m.agentId,
      name: m.name,
      agentType: m.agentType,
      model,
      instructions: m.instructions,
      planMode: m.planMode,
      createdAt: m.createdAt,
      transcriptFile: this.transcriptOf(m),
      resume,
      inPlanMode: () => m.planMode && !m.planApproved,
      handler: (parent) =>
        teamPermissionHandler({
          parent,
          member: (agentId) => this.members.find((x) => x.agentId === agentId),
          changed: () => this.changed(),
        }),
      capability: this.teammate(m),
      onAgentEvent: (e) => this.setup.onAgentEvent(e),
    });
  }

  /** The worker's runtime, built from its saved transcript the first time it works after a restart. */
  private workerOf(m: Member): BuiltWorker {
    if (m.worker) return m.worker;
    const file = this.transcriptOf(m);
    m.worker = this.build(m, existsSync(file), m.model);
    return m.worker;
  }

  private teammate(m: Member): TeammateTeam {
    return {
      role: 'worker',
      name: m.name,
      submitPlan: (plan) => {
        if (!m.planMode || m.planApproved)
          throw new AppError(
            'CONFLICT',
            'You are not in plan mode: there is no plan to submit; go ahead with the work.',
          );
        if (m.pendingPlan !== null)
          throw new AppError(
            'CONFLICT',
            'Your plan is already waiting for a decision; end your turn and wait for it.',
          );
        this.roster.append({ type: 'plan', agentId: m.agentId, plan, at: now() });
        m.pendingPlan = plan;
        m.submittedPlan = true;
        return this.deliver(this.coordinatorBox, {
          from: m.name,
          to: 'coordinator',
          text: plan,
          kind: 'plan',
        });
      },
    };
  }

  /** Writes a message to a mailbox (disk first), adds it to the timeline and tells everyone. */
  private deliver(box: Mailbox, m: Omit<TeamMessage, 'id' | 'at'>): TeamMessage {
    const message: TeamMessage = { id: randomUUID(), at: now(), ...m };
    const seq = ++this.seq;
    box.deliver(seq, message);
    this.timeline.push({ seq, message });
    this.setup.events?.onMessage?.(shown(message));
    this.changed();
    if (box === this.coordinatorBox) this.setup.events?.onCoordinatorMail?.();
    return message;
  }

  /** Starts a turn for `m` if it is idle, active and has mail. */
  private pump(m: Member): void {
    if (this.closed || m.ended || m.turn !== null) return;
    const mail = m.mailbox.unread();
    if (mail.length === 0) return;
    // A worker of an earlier run is listed again when it next works.
    if (!m.task) this.listTask(m);
    m.mailbox.markRead(mail.map((x) => x.message.id));
    const stop = new AbortController();
    m.stop = stop;
    m.failed = false;
    m.submittedPlan = false;
    this.setup.agentStops?.set(m.agentId, stop);
    const identity = {
      sessionId: this.setup.sessionId,
      agentId: m.agentId,
      name: m.name,
      agentType: m.agentType,
    };
    m.turn = runAsMember(identity, () =>
      runWorkerTurn({
        worker: () => this.workerOf(m),
        mail: mail.map((x) => x.message),
        signal: stop.signal,
        onEvent: (e) => this.setup.onAgentEvent(e),
      }),
    ).then((outcome) => this.turnEnded(m, stop, outcome));
    this.changed();
  }

  /** After a worker's turn: its report goes to the coordinator, and it takes up any mail that came. */
  private turnEnded(m: Member, stop: AbortController, outcome: TurnOutcome): void {
    m.turn = null;
    m.stop = null;
    if (this.setup.agentStops?.get(m.agentId) === stop) this.setup.agentStops.delete(m.agentId);
    m.failed = outcome.failed;
    try {
      // Ended or shut down: nobody is waiting for this turn's answer.
      m.task?.append(`${outcome.report}\n`);
      if (!m.ended && !this.closed && !m.submittedPlan)
        this.deliver(this.coordinatorBox, {
          from: m.name,
          to: 'coordinator',
          text: outcome.report,
          kind: 'message',
        });
    } catch (error) {
      // The report could not be saved (a full disk): the worker is failed, and says so when it can.
      m.failed = true;
      this.problems.push(`${m.name}'s report could not be delivered: ${describeError(error)}`);
    }
    this.changed();
    this.pump(m);
  }

  /** Lists a worker in the session's tasks; stopping that task ends the worker (as TeamDelete does). */
  private listTask(m: Member): void {
    const tasks = this.setup.tasks?.();
    if (!tasks || m.ended) return;
    m.task = tasks.track({
      kind: 'in_process_teammate',
      description: `${m.name} (${m.agentType})`,
      command: m.instructions,
      agentId: m.agentId,
      // Whatever happens to the removal (a team already closed), the task ends.
      stop: () =>
        void this.remove([m.name])
          .catch(() => undefined)
          .finally(() => m.task?.end('killed')),
    });
  }

  private changed(): void {
    for (const wake of [...this.waiters]) wake();
    this.setup.events?.onChange?.(this.view());
  }
}
