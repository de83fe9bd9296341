import { randomUUID } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { PermissionMode } from '@shared/domain/permissions';
import type { SessionSummary, SessionWorktree, TaskView } from '@shared/domain/session';
import type { SandboxService } from '../harness/bash/sandbox';
import type { ModelRouter } from '../harness/model/model-client';
import { interactiveHandler } from '../harness/permissions/handlers';
import { restoredMode, trustedModes, type TrustedModes } from '../harness/permissions/default-mode';
import { sessionHookRunner } from './session-hooks';
import { SessionHookEvents } from '../harness/hooks/session-events';
import { permissionRequestDecider } from '../harness/hooks/permission-request';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import type { PermissionBroker } from './permission-broker';
import type { BudgetService } from './budget-service';
import { managedPolicyError, type SourceLocations } from '../harness/permissions/settings-sources';
import { homedir } from 'node:os';
import { createTranscript, readTranscript, repairTornTail } from '../harness/session/transcript-file';
import type { AnyTool } from '../harness/tools/tool';
import type { McpManager } from '../harness/mcp/types';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import { LiveSession } from './live-session';
import type { ProjectRegistry } from './projects';
import { SessionCache } from './session-cache';
import { SessionIndex } from './session-index';
import { createRuntime } from '../harness/runtime/create-runtime';
import type { AgentCatalog } from '../harness/runtime/types';
import type { AgentFileProblem } from '../harness/agents/definition';
import type { SkillCatalog, SkillProblem } from '../harness/skills/definition';
import type { AgentSummary } from '@shared/domain/agents';
import { defaultTitle, metaFromLines, type SessionMeta } from './session-meta';
import { SessionTeams } from './session-teams';
import { prepareTurn } from '../harness/commands/prepare-turn';
import { commandTurnModel } from '../harness/commands/turn-model';
import { SessionArchive } from './session-archive';
import type { TeamMessage, TeamView } from '@shared/domain/team';
import type { LoadedInstructions } from '../harness/memory/instructions';
import { guardTools, worktreeProblem } from './worktree-check';

export interface SessionManagerDeps {
  /** The person's home folder (`~/.claude/`, `~/` in rules); `homedir()` unless given (tests). */
  homeDir?: string | undefined;
  projectDir(projectId: string): string;
  projects: ProjectRegistry;
  hub: EventHub;
  models: ModelRouter;
  tools: readonly AnyTool[];
  /** Environment for commands the model runs, without secrets. */
  toolEnv: NodeJS.ProcessEnv;
  /** The model a new session gets when none is asked for. */
  defaultModel(): string;
  fallbackModel(): string | undefined;
  logger: Logger;
  /** Retries of a failed model call before the error shows (default: the loop's). */
  maxRetries?: number | undefined;
  /** Where a project's permission settings live (user, project, local, policy). */
  permissionLocations(projectRoot: string): SourceLocations;
  broker: PermissionBroker;
  /** Spending limits: each session's agents await its budget before every model request. */
  budgets?: BudgetService | undefined;
  /** The OS sandbox Bash commands run in; null runs them without one (tests of other parts). */
  sandbox: SandboxService | null;
  /** The agent types a project's sessions may start (built-ins and agent files). */
  agentCatalog(projectRoot: string, report: (problems: AgentFileProblem[]) => void): AgentCatalog;
  /** The skills a project's sessions are offered through the Skill tool; none without it. */
  skillCatalog?:
    ((projectRoot: string, report: (problems: SkillProblem[]) => void) => SkillCatalog) | undefined;
  /** A project's MCP servers (mcp-service.ts), whose tools its sessions get; none without it. */
  mcp?: ((projectId: string) => McpManager) | undefined;
  /** Idle sessions kept in memory (session-cache.ts); more are read back from disk when used. */
  hydratedBound?: number | undefined;
}

const now = () => new Date().toISOString();

/** The folder a session works in: the project, or the project's place in the session's worktree. */
export function workRoot(projectPath: string, worktree: SessionWorktree | undefined): string {
  return worktree ? path.join(worktree.path, worktree.prefix) : projectPath;
}

/**
 * Every session of every project opened in this process. The list comes from each project's index
 * (a cache of the transcripts); a session's transcript is loaded, and its engine built, when it is
 * first opened. Several sessions run turns at once.
 */
export class SessionManager {
  /** Sessions in memory, bounded: the least recently used idle one is dropped (session-cache.ts). */
  private readonly live: SessionCache<LiveSession>;
  /** The session on screen (the active tab) in each project: never dropped from memory. */
  private readonly onScreen = new Map<string, string>();
  private readonly indexes = new Map<string, SessionIndex>();
  /** Which project each known session belongs to, and its file. */
  private readonly known = new Map<string, { projectId: string; file: string }>();
  /** The hook events of each session in memory: SessionStart/End, Notification (hooks/session-events.ts). */
  private readonly hookEvents = new Map<string, SessionHookEvents>();
  /** The teams of coordinator sessions. */
  private readonly teams: SessionTeams;
  /** Archive and trash (session-archive.ts). */
  readonly archive: SessionArchive;

  constructor(private readonly deps: SessionManagerDeps) {
    this.live = new SessionCache<LiveSession>({
      bound: deps.hydratedBound,
      evictable: (id, s) => this.mayDehydrate(id, s),
      evicted: (_id, s) => this.dehydrate(s),
    });
    this.teams = new SessionTeams({
      hub: deps.hub,
      logger: deps.logger,
      live: (id) => this.live.get(id),
      blocked: (id) => managedPolicyError(deps.permissionLocations(this.projectRootOf(id)).policyFile),
    });
    this.archive = new SessionArchive({
      // Only projects the registry knows: an id like `../..` never names a folder.
      projectDir: (id) => (deps.projects.get(id), deps.projectDir(id)),
      // projects/<slug> sits in the app's data folder; the trash goes beside projects/.
      trashDir: path.join(path.dirname(path.dirname(deps.projectDir('trash'))), 'trash'),
      hub: deps.hub,
      logger: deps.logger,
      release: (id) => this.release(id),
    });
  }

  /**
   * Drops a stopped session and its team from memory before its files move away (archive, trash). Returns how to
   * take it back if the move fails: it is known again, and reloads from its file when next used.
   */
  private release(sessionId: string): () => void {
    const s = this.live.get(sessionId);
    // An idle worker's task stays "running" as long as the worker lives: the agents' states say
    // whether one is at work, and the team is closed below.
    const tasks =
      s?.engine.tasks.list().some((t) => t.status === 'running' && t.kind !== 'in_process_teammate') ?? false;
    if (s && (s.busy || tasks || s.agents.list().some((a) => a.state === 'working' || a.state === 'waiting')))
      throw new AppError('CONFLICT', 'This session is still working; stop it first.');
    const where = this.known.get(sessionId);
    this.live.delete(sessionId);
    this.known.delete(sessionId);
    // Its team goes with it (the terminal, owned by the IPC layer, is closed there once it has moved).
    this.teams.forget(sessionId);
    if (s) void this.endHooks(s.id).finally(() => s.engine.close().catch(() => undefined));
    return () => {
      if (where) this.known.set(sessionId, where);
    };
  }

  /** A session moved back into the list (unarchived, restored), as the list now shows it. */
  summaryAfterReturn(projectId: string, sessionId: string): SessionSummary {
    const summary = this.list(projectId).find((x) => x.id === sessionId);
    if (!summary) throw new AppError('CORRUPT_DATA', `Session ${sessionId} came back but cannot be read.`);
    this.deps.hub.emit('sessions.changed', { session: summary });
    return summary;
  }

  private index(projectId: string): SessionIndex {
    let index = this.indexes.get(projectId);
    if (!index) {
      const dir = this.deps.projectDir(projectId);
      mkdirSync(dir, { recursive: true });
      index = new SessionIndex(dir, this.deps.logger);
      this.indexes.set(projectId, index);
    }
    return index;
  }

  list(projectId: string): SessionSummary[] {
    const project = this.deps.projects.get(projectId);
    const modes = this.modes(project.path);
    const out = new Map<string, SessionSummary>();
    for (const { meta, file } of this.index(projectId).list((id) => this.live.get(id)?.meta())) {
      this.known.set(meta.id, { projectId, file });
      const { titled: _titled, ...rest } = meta;
      // Listed as it would reopen: the index caches the last mode, which may be a bypass from before.
      const permissionMode = restoredMode(rest.permissionMode, modes);
      out.set(meta.id, {
        ...rest,
        permissionMode,
        projectId,
        activity: 'idle',
        waitingForUser: false,
        lastError: null,
        background: false,
      });
    }
    for (const s of this.live.values()) if (s.projectId === projectId) out.set(s.id, s.summary());
    return [...out.values()].sort(
      (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt),
    );
  }

  has(sessionId: string): boolean {
    return this.live.has(sessionId) || this.known.has(sessionId);
  }

  projectOf(sessionId: string): string {
    const id = this.live.get(sessionId)?.projectId ?? this.known.get(sessionId)?.projectId;
    if (id === undefined) throw new AppError('NOT_FOUND', `There is no session ${sessionId}.`);
    return id;
  }

  get(sessionId: string): { session: SessionSummary; transcript: TranscriptItem[] } {
    const s = this.open(sessionId);
    this.deltasOut();
    return { session: s.summary(), transcript: s.transcript() };
  }

  /**
   * Sends the text deltas the hub still holds (its ~16 ms batch) before a snapshot is taken: the
   * snapshot already contains their text, and had they come after it the window would append them
   * a second time. All sessions' at once: one batch either way, and the order among them is kept.
   */
  private deltasOut(): void {
    this.deps.hub.flush();
  }

  /**
   * A new session; a coordinator session's only tools are the team's, and it leads a team. With a
   * `worktree` (made beforehand, workspace/worktrees) its tools, sandbox and terminal work there.
   */
  create(projectId: string, model?: string, coordinator = false, worktree?: SessionWorktree): SessionSummary {
    const project = this.deps.projects.get(projectId);
    const id = randomUUID();
    const file = path.join(this.deps.projectDir(projectId), `${id}.jsonl`);
    const createdAt = now();
    // The start mode comes from trusted sources only: a repository's own files cannot widen it.
    const modes = this.modes(project.path);
    for (const problem of modes.problems) this.deps.logger.warn(problem);
    const meta: SessionMeta = {
      id,
      title: defaultTitle(createdAt),
      titled: false,
      model: model ?? this.deps.defaultModel(),
      permissionMode: modes.defaultMode,
      createdAt,
      updatedAt: createdAt,
      messageCount: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      costUsd: 0,
      costKind: 'priced',
      coordinator,
      ...(worktree ? { worktree } : {}),
    };
    // The file is written whole before the session exists anywhere else: on a full disk this throws
    // and leaves nothing behind (no file, no live session, no index entry, no event).
    createTranscript(file, [
      {
        type: 'session',
        version: 1,
        sessionId: id,
        projectPath: project.path,
        createdAt,
        model: meta.model,
        // Kept in the transcript, so the session reopens as a coordinator with its team.
        ...(coordinator ? { coordinator: true as const } : {}),
        ...(worktree ? { worktree } : {}),
      },
      { type: 'mode', mode: meta.permissionMode, at: createdAt },
    ]);
    const session = this.build(meta, projectId, project.path, file, []);
    this.hookEvents.get(id)?.start('startup');
    // Its tab opens, active.
    this.onScreen.set(projectId, id);
    this.live.set(id, session);
    this.known.set(id, { projectId, file });
    this.index(projectId).update(file, session.meta());
    const summary = session.summary();
    this.deps.hub.emit('sessions.changed', { session: summary });
    return summary;
  }

  /** Appends the person's message and starts the reply; returns at once. */
  send(sessionId: string, text: string): { messageId: string } {
    const session = this.readyForTurn(sessionId);
    // A custom slash command is sent as its body with the arguments put in; an unknown `/name` is
    // refused (the window keeps the text), never sent to the model by mistake.
    const root = this.projectRootOf(sessionId);
    const home = this.deps.permissionLocations(root).home;
    const turn = prepareTurn(
      text,
      { projectRoot: root, home: this.deps.homeDir ?? homedir(), carapaceHome: home },
      'app',
    );
    for (const p of turn.problems)
      session.notify('warning', `Command file ${p.file}: ${p.message}`, 'command_file');
    if (turn.kind === 'error') throw new AppError('INVALID_INPUT', turn.message);
    // The command's `model` is its turn's (a project's no dearer than the session's).
    const pick = turn.command ? commandTurnModel(session.engine.model, turn.command) : null;
    if (pick?.notice) session.notify('info', pick.notice, 'command_model');
    if (turn.command && turn.command.allowedTools.length > 0)
      session.notify(
        'info',
        `/${turn.command.name}: its allowed-tools pre-approve only in carapace -p for now; here the session's rules decide.`,
        'command_options',
      );
    // A new message: a limit the person stopped at is asked about again.
    this.deps.budgets?.newTurn(sessionId);
    return session.send(turn.prompt, pick?.model);
  }

  /** Runs a session's failed or cut-off last turn again, without repeating the person's message. */
  retry(sessionId: string): { retried: true } {
    const s = this.readyForTurn(sessionId);
    if (!s.retry()) throw new AppError('CONFLICT', 'There is nothing to retry: the last reply finished.');
    return { retried: true };
  }

  /**
   * A session for rewind and fork (ipc/rewind.ts), live, with its project root and Carapace's data
   * folder (never written by a rewind). `idle`: nothing of it runs (a turn, a background task, an
   * agent), since a rewind must not race an agent still editing files.
   */
  rewindable(sessionId: string): {
    session: LiveSession;
    projectRoot: string;
    carapaceHome: string;
    idle: boolean;
  } {
    const s = this.open(sessionId);
    // A session in a worktree changed files there: that is the folder a rewind may write in.
    const projectRoot = this.workRootOf(sessionId);
    // An idle worker's task stays "running" while the worker lives: the agents' states say whether
    // one is at work (as release() reads them).
    const idle =
      !s.busy &&
      !s.engine.tasks.list().some((t) => t.status === 'running' && t.kind !== 'in_process_teammate') &&
      !s.agents.list().some((a) => a.state === 'working' || a.state === 'waiting');
    return { session: s, projectRoot, carapaceHome: this.deps.permissionLocations(projectRoot).home, idle };
  }

  /** After a rewind: the index and the window hear that the session changed. */
  rewound(sessionId: string): SessionSummary {
    const s = this.open(sessionId);
    this.index(s.projectId).update(s.file, s.meta());
    const summary = s.summary();
    this.deps.hub.emit('sessions.changed', { session: summary });
    return summary;
  }

  /** A transcript written whole beside the project's others (a fork): known, opened, on screen. */
  adopt(projectId: string, sessionId: string, file: string): SessionSummary {
    this.known.set(sessionId, { projectId, file });
    const s = this.open(sessionId);
    this.onScreen.set(projectId, sessionId);
    this.index(projectId).update(file, s.meta());
    const summary = s.summary();
    this.deps.hub.emit('sessions.changed', { session: summary });
    return summary;
  }

  /**
   * The session, about to run a turn the person asked for: it is not working already, its managed
   * policy can be read (one that cannot must not mean running unmanaged: no turn starts), and its
   * team's mail may start turns again (the person wrote).
   */
  private readyForTurn(sessionId: string): LiveSession {
    const s = this.open(sessionId);
    if (s.busy)
      throw new AppError('CONFLICT', 'This session is still working; wait for it or stop it first.');
    const policy = managedPolicyError(
      this.deps.permissionLocations(this.projectRootOf(sessionId)).policyFile,
    );
    if (policy !== null) throw new AppError('CORRUPT_DATA', policy);
    // A session whose worktree is gone (or is now something else) starts nothing there.
    const wt = s.meta().worktree;
    const gone = wt ? worktreeProblem(this.projectRootOf(sessionId), wt) : null;
    if (gone !== null)
      throw new AppError('CONFLICT', `${gone} Continue this session in the main checkout instead.`);
    this.teams.resume(sessionId);
    return s;
  }

  /** Marks a session as sent to (or brought back from) the background. */
  setBackground(sessionId: string, background: boolean): SessionSummary {
    const s = this.open(sessionId);
    s.setBackground(background);
    return s.summary();
  }

  /** Ids of the sessions in memory, least recently used first. */
  hydrated(): string[] {
    return this.live.ids();
  }

  /** A loaded background session is back in view (its tab opened). */
  foreground(sessionId: string): void {
    this.live.get(sessionId)?.setBackground(false);
    const projectId = this.live.get(sessionId)?.projectId ?? this.known.get(sessionId)?.projectId;
    if (projectId !== undefined) this.onScreen.set(projectId, sessionId);
  }

  /**
   * Whether a session may leave memory: nothing of it runs (a turn, a background task, an agent),
   * nobody is asked anything, its shell is where reading it back would put it (the project root),
   * it is not on screen and leads no team (its workers hold it). A background session is held while
   * it works (the person is told when it ends, by the events of its end); once finished it is an
   * idle session without a tab like any other.
   */
  private mayDehydrate(id: string, s: LiveSession): boolean {
    if (s.busy || s.coordinator || this.deps.broker.waiting(id)) return false;
    if (this.onScreen.get(s.projectId) === id) return false;
    if (!this.shellAtRoot(s)) return false;
    if (s.engine.tasks.list().some((t) => t.status === 'running')) return false;
    return !s.agents.list().some((a) => a.state === 'working' || a.state === 'waiting');
  }

  /**
   * Whether the session's Bash commands still start in its project root. The directory a `cd` left
   * them in lives only in the engine: read back from its file, the session would start at the root
   * again, behind the model's back. So one whose shell moved stays in memory. Saving the directory
   * instead would be a transcript change (and would change what a restart does); sessions that
   * moved and then sit idle are few, so keeping them is the smaller fix.
   */
  private shellAtRoot(s: LiveSession): boolean {
    const cwd = s.engine.workingDirectory;
    const project = this.deps.projects.pathOf(s.projectId);
    if (project === null) return true; // The project is gone: nothing to come back to.
    const root = workRoot(project, s.meta().worktree);
    if (path.resolve(cwd) === path.resolve(root)) return true;
    try {
      return realpathSync(cwd) === realpathSync(root);
    } catch {
      return false;
    }
  }

  /** Drops an idle session from memory; the index keeps its summary, its file everything else. */
  private dehydrate(s: LiveSession): void {
    // Read back, it is an ordinary session (the flag lives in memory only): the window is told so.
    s.setBackground(false);
    this.index(s.projectId).update(s.file, s.meta());
    void this.endHooks(s.id);
    void s.engine.close().catch((error: unknown) => {
      this.deps.logger.warn(`Closing session ${s.id}: ${(error as Error).message}`);
    });
  }

  stop(sessionId: string): { stopped: boolean } {
    const s = this.open(sessionId);
    // A stopped coordinator stays stopped: its team's mail waits until the person writes to it.
    this.teams.pause(sessionId);
    return { stopped: s.stop() };
  }

  rename(sessionId: string, title: string): SessionSummary {
    const s = this.open(sessionId);
    s.rename(title);
    return s.summary();
  }

  setModel(sessionId: string, model: string): SessionSummary {
    const s = this.open(sessionId);
    if (s.busy)
      throw new AppError('CONFLICT', 'The model cannot change while the session is working; stop it first.');
    s.setModel(model);
    return s.summary();
  }

  setPermissionMode(sessionId: string, mode: PermissionMode): SessionSummary {
    const s = this.open(sessionId);
    const bypass = this.modes(this.projectRootOf(sessionId)).bypass;
    if (mode === 'bypassPermissions' && !bypass.available) throw new AppError('FORBIDDEN', bypass.reason);
    s.setPermissionMode(mode);
    return s.summary();
  }

  /** Stops every running turn and waits until each has saved what it had. */
  async shutdown(): Promise<void> {
    const running = [...this.live.values()].filter((s) => s.busy);
    for (const s of running) s.stop();
    await Promise.allSettled(running.map((s) => s.settled()));
    // Workers stop mid-turn like the rest; their teams come back, idle, when reopened.
    await this.teams.close();
    // SessionEnd for every session still open, each within its budget, before the engines close.
    await Promise.allSettled([...this.hookEvents.keys()].map((id) => this.endHooks(id)));
    await Promise.allSettled([...this.live.values()].map((s) => s.engine.close()));
  }

  /** SessionEnd (reason other) for a session leaving memory: closed, moved away, or the app quitting. */
  private async endHooks(sessionId: string): Promise<void> {
    const events = this.hookEvents.get(sessionId);
    this.hookEvents.delete(sessionId);
    await events?.end('other');
  }

  /** The modes a project's sessions may use: the start mode and whether bypass is available. */
  modes(projectRoot: string): TrustedModes {
    return trustedModes(this.deps.permissionLocations(projectRoot));
  }

  projectModes(projectId: string): TrustedModes {
    return this.modes(this.deps.projects.get(projectId).path);
  }

  /** The live session, loading it from its transcript on first use. */
  private open(sessionId: string): LiveSession {
    const existing = this.live.get(sessionId);
    if (existing) {
      this.live.touch(sessionId);
      return existing;
    }
    const where = this.known.get(sessionId);
    if (!where) throw new AppError('NOT_FOUND', `There is no session ${sessionId}.`);
    const project = this.deps.projects.get(where.projectId);
    // Before anything can be appended: a torn last line would swallow the next one.
    let repaired: string | null;
    try {
      repaired = repairTornTail(where.file);
    } catch (error) {
      // Still shown (read-only): the writer tries again, and refuses to append, until it can.
      repaired = `${(error as Error).message}. Nothing can be added to this session until then.`;
    }
    const { lines, problems } = readTranscript(where.file);
    // The torn line was the file's last: its report comes after those of the lines before it.
    if (repaired !== null) problems.push(repaired);
    const saved = metaFromLines(where.file, lines, statSync(where.file).mtime.toISOString());
    // The mode is session state: it never comes back wider than a new session would start in now.
    const meta = { ...saved, permissionMode: restoredMode(saved.permissionMode, this.modes(project.path)) };
    const log = lines.flatMap((l) => (l.type === 'permission' ? [l.entry] : []));
    const session = this.build(meta, where.projectId, project.path, where.file, log);
    session.engine.resume(lines);
    this.hookEvents.get(sessionId)?.start('resume');
    for (const problem of problems) {
      // Shown, not written: apart from a torn tail moved aside, the file is left as it was.
      const notice: NoticeItem = {
        kind: 'notice',
        id: randomUUID(),
        level: 'warning',
        text: `Transcript: ${problem}`,
        code: 'transcript_repaired',
        createdAt: now(),
      };
      session.engine.showNotice(notice);
    }
    // Sub-agents' saved transcripts that could not be read back: the session opens without them.
    for (const problem of session.agents.problems)
      session.engine.showNotice({
        kind: 'notice',
        id: randomUUID(),
        level: 'warning',
        text: problem,
        code: 'agent_transcript',
        createdAt: now(),
      });
    this.live.set(sessionId, session);
    return session;
  }

  private build(
    meta: SessionMeta,
    projectId: string,
    projectPath: string,
    file: string,
    log: PermissionLogEntry[],
  ): LiveSession {
    // A session in a worktree works there: its tools, sandbox, settings and hooks see the worktree
    // as the project (its `.git` file stays protected like any `.git`). Budgets and the person's
    // approvals stay the project's.
    const projectRoot = projectPath;
    const worktree = meta.worktree;
    projectPath = workRoot(projectPath, worktree);
    let mode = meta.permissionMode;
    // Assigned below; the gate only calls back once a turn runs.
    let session: LiveSession | null = null;
    const agentStops = new Map<string, AbortController>();
    // Hooks: the user's and the policy's, and the project's own once the workspace trusts them.
    const hooks = sessionHookRunner({
      sessionId: meta.id,
      transcriptFile: file,
      projectRoot: projectPath,
      locations: () => this.deps.permissionLocations(projectPath),
      permissionMode: () => mode,
      env: this.deps.toolEnv,
      home: this.deps.homeDir ?? homedir(),
      onProblem: (problem) => session?.notify('warning', `Hooks: ${problem}`, 'hook_settings'),
      gone: worktree ? () => worktreeProblem(projectRoot, worktree) : undefined,
    });
    const hookEvents = new SessionHookEvents(hooks, {
      notify: (messages) => {
        for (const m of messages) session?.notify('warning', `Hooks: ${m}`, 'hook_message');
      },
    });
    this.hookEvents.set(meta.id, hookEvents);
    const runtime = createRuntime({
      hooks,
      mcp: this.deps.mcp?.(projectId),
      sessionId: meta.id,
      projectRoot: projectPath,
      transcriptFile: file,
      locations: this.deps.permissionLocations(projectPath),
      home: this.deps.homeDir ?? homedir(),
      sandbox: this.deps.sandbox,
      initialMode: meta.permissionMode,
      // A policy that disables bypass after a session entered it takes effect at the next tool call.
      mode: () =>
        mode === 'bypassPermissions' && !this.modes(projectPath).bypass.available ? 'default' : mode,
      // A person answers in the UI; hooks and a classifier join this race when they exist.
      // PermissionRequest hooks race the person; Notification hooks hear of each question.
      handler: interactiveHandler({
        askUser: hookEvents.askUser(this.deps.broker.decider(projectRoot)),
        // The app runs a project's hooks only once its trust accepted them: they may add session rules.
        hooks: permissionRequestDecider(hooks, { projectRoot: projectPath, projectTrusted: true }),
      }),
      onDecision: (entry) => session?.recordDecision(entry),
      model: meta.model,
      fallbackModel: this.deps.fallbackModel(),
      // In a worktree, every tool call first checks the worktree is still there (workspace/worktree-check.ts).
      tools: worktree
        ? guardTools(this.deps.tools, () => worktreeProblem(projectRoot, worktree))
        : this.deps.tools,
      models: this.deps.models,
      toolEnv: this.deps.toolEnv,
      maxRetries: this.deps.maxRetries,
      taskEvents: {
        onChange: (task) => this.deps.hub.emit('tasks.changed', { task }),
        onOutput: (taskId, text) => this.deps.hub.taskOutput({ sessionId: meta.id, taskId, text }),
      },
      agents: this.deps.agentCatalog(projectPath, (problems) => {
        // A broken agent file is shown to the person and skipped; the others still load.
        for (const p of problems)
          session?.notify('warning', `Agent file ${p.file}: ${p.message}`, 'agent_file');
      }),
      skills: this.deps.skillCatalog?.(projectPath, (problems) => {
        // A broken skill is shown to the person and skipped; the others are still offered.
        for (const p of problems) session?.notify('warning', `Skill ${p.file}: ${p.message}`, 'skill_file');
      }),
      agentStops,
      onAgentEvent: (e) => session?.onEvent(e),
      coordinator: meta.coordinator ? this.teams.setup(meta.id) : undefined,
      budget: this.deps.budgets?.gateFor({
        sessionId: meta.id,
        projectPath: projectRoot,
        spentBefore: () => runtime.engine.cost.snapshot().totalCostMicros,
        log: (line) => runtime.engine.appendLine(line),
        // Budget notices stay in the transcript: what was spent and decided is part of its history.
        notice: (item) => {
          runtime.engine.appendLine({ type: 'item', item });
          runtime.engine.showNotice(item);
          this.deps.hub.emit('transcript.appended', { sessionId: meta.id, agentId: meta.id, item });
        },
      }),
    });
    const { engine, gate } = runtime;
    session = new LiveSession({
      meta,
      projectId,
      file,
      engine,
      // A turn starting ends the idle spell the idle Notification waits on.
      runtime: {
        ...runtime,
        run: (prompt, options) => (hookEvents.turnStarted(), runtime.run(prompt, options)),
        retry: (options) => (hookEvents.turnStarted(), runtime.retry(options)),
      },
      agentStops,
      agentWaiting: (agentId) => this.deps.broker.waitingAgent(agentId),
      hub: this.deps.hub,
      logger: this.deps.logger,
      applyMode: (e, next) => {
        mode = next;
        e.setPermissions(next, gate);
      },
      onChanged: (s) => {
        this.index(s.projectId).update(s.file, s.meta());
        if (s.activity === 'idle' || s.activity === 'error') hookEvents.turnEnded();
        // A coordinator's turn ended: mail that came as it ended starts the next one.
        if (meta.coordinator) this.teams.wake(s.id);
      },
      // A permission request or a budget question: either way the session waits for the person.
      waiting: () => this.deps.broker.waiting(meta.id) || (this.deps.budgets?.waiting(meta.id) ?? false),
      log,
      coordinator: meta.coordinator,
    });
    if (runtime.team) this.teams.adopt(session, runtime.team);
    return session;
  }

  /** A session's team (loading the session); an empty one for sessions that are not coordinators. */
  team(sessionId: string): TeamView {
    this.open(sessionId);
    return this.teams.view(sessionId);
  }

  /** The person writes to a worker of a coordinator session. */
  teamMessage(sessionId: string, to: string, text: string): TeamMessage {
    this.open(sessionId);
    return this.teams.message(sessionId, to, text);
  }

  /** The person approves or rejects a worker's plan. */
  decidePlan(sessionId: string, member: string, approve: boolean, feedback = ''): TeamMessage {
    this.open(sessionId);
    return this.teams.decidePlan(sessionId, member, approve, feedback);
  }

  /** A session's background tasks; a session not loaded has none running (they end with it). */
  tasks(sessionId: string): TaskView[] {
    return this.live.get(sessionId)?.engine.tasks.list() ?? [];
  }

  /** A session's sub-agents and workers (loading the session to find those of earlier runs). */
  agents(sessionId: string): AgentSummary[] {
    return this.open(sessionId).agents.list();
  }

  agentTranscript(sessionId: string, agentId: string): TranscriptItem[] {
    const session = this.open(sessionId);
    this.deltasOut();
    const items = session.agents.transcript(agentId);
    if (!items) throw new AppError('NOT_FOUND', `Session ${sessionId} has no agent ${agentId}.`);
    return items;
  }

  stopAgent(sessionId: string, agentId: string): boolean {
    return this.live.get(sessionId)?.stopAgent(agentId) ?? false;
  }

  stopTask(sessionId: string, taskId: string): boolean {
    return this.live.get(sessionId)?.engine.tasks.kill(taskId) ?? false;
  }

  /** A session's permission log (loading the session if needed). */
  permissionLog(sessionId: string): readonly PermissionLogEntry[] {
    return this.open(sessionId).permissionLog;
  }

  /** Tells a session its waiting-for-a-person state changed. */
  waitingChanged(sessionId: string): void {
    this.live.get(sessionId)?.waitingChanged();
  }

  /** The project root of a session. */
  projectRootOf(sessionId: string): string {
    return this.deps.projects.get(this.projectOf(sessionId)).path;
  }

  /**
   * Where a session works: its worktree's copy of the project, or the project itself. A worktree
   * that is gone, or whose path now leads elsewhere, is nowhere to work: no terminal opens and no
   * rewind writes there (CONFLICT, saying why).
   */
  workRootOf(sessionId: string): string {
    const root = this.projectRootOf(sessionId);
    const live = this.live.get(sessionId);
    const wt = live
      ? live.meta().worktree
      : this.list(this.projectOf(sessionId)).find((s) => s.id === sessionId)?.worktree;
    const gone = wt ? worktreeProblem(root, wt) : null;
    if (gone !== null)
      throw new AppError('CONFLICT', `${gone} Continue this session in the main checkout instead.`);
    return workRoot(root, wt);
  }

  /** A session's transcript file (loading the session): what a copy of it reads. */
  transcriptOf(sessionId: string): string {
    return this.open(sessionId).file;
  }

  /**
   * The instruction files and memories in a loaded session's context (the memory browser's "Loaded in
   * this session"); null for a session not loaded, which has loaded nothing yet.
   */
  loadedContext(sessionId: string): LoadedInstructions | null {
    this.projectOf(sessionId);
    return this.live.get(sessionId)?.engine.loadedContext() ?? null;
  }
}
