import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { SessionSummary } from '@shared/domain/session';
import type {
  WorktreeRepoInfo,
  WorktreeStatusView,
  WorktreeMergeResult,
} from '@shared/ipc/contract/worktrees';
import { linesAfterCuts } from '../../harness/session/cut-lines';
import { createTranscript, readTranscript, type TranscriptLine } from '../../harness/session/transcript-file';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { ProjectRegistry } from '../projects';
import type { SessionManager } from '../sessions';
import type { WorkspaceService } from '../workspace-service';
import type { WorktreeService } from './worktree-service';
import { worktreeProblem } from '../worktree-check';

/** Sessions and their worktrees together: what the worktrees.* channels do. */
export class SessionWorktrees {
  constructor(
    private readonly o: {
      worktrees: WorktreeService;
      projects: ProjectRegistry;
      sessions: SessionManager;
      workspace: WorkspaceService;
      logger: Logger;
      /** The user setting `worktrees.default`. */
      defaultOn(): boolean;
    },
  ) {}

  async info(projectId: string): Promise<WorktreeRepoInfo> {
    const info = await this.o.worktrees.info(this.o.projects.get(projectId).path);
    return { ...info, defaultOn: info.isGit && this.o.defaultOn() };
  }

  /** Makes the worktree, then the session in it; a session that cannot be made takes its worktree with it. */
  async createSession(
    projectId: string,
    base: string,
    fetch: boolean,
    model?: string,
  ): Promise<SessionSummary> {
    const projectPath = this.o.projects.get(projectId).path;
    const name = `session-${randomUUID().slice(0, 8)}`;
    const wt = await this.o.worktrees.create(projectPath, { base, name, fetch });
    try {
      return this.o.workspace.createSession(projectId, model, false, wt);
    } catch (error) {
      await this.o.worktrees.remove(projectPath, wt, true).catch((e: unknown) => {
        this.o.logger.warn(`Removing the worktree of a session not made: ${(e as Error).message}`);
      });
      throw error;
    }
  }

  async status(projectId: string): Promise<WorktreeStatusView[]> {
    const projectPath = this.o.projects.get(projectId).path;
    const out: WorktreeStatusView[] = [];
    for (const s of this.o.sessions.list(projectId)) {
      if (!s.worktree) continue;
      const st = await this.o.worktrees.status(projectPath, s.worktree).catch(() => null);
      if (st) out.push({ sessionId: s.id, branch: s.worktree.branch, base: s.worktree.base, ...st });
    }
    return out;
  }

  private sessionWorktree(sessionId: string) {
    const projectId = this.o.sessions.projectOf(sessionId);
    const s = this.o.sessions.list(projectId).find((x) => x.id === sessionId);
    if (!s?.worktree) throw new AppError('NOT_FOUND', 'This session has no worktree.');
    if (s.activity !== 'idle' && s.activity !== 'error')
      throw new AppError('CONFLICT', 'This session is still working; stop it first.');
    return { session: s, projectPath: this.o.projects.get(projectId).path, wt: s.worktree };
  }

  async merge(sessionId: string): Promise<WorktreeMergeResult> {
    const { session, projectPath, wt } = this.sessionWorktree(sessionId);
    const r = await this.o.worktrees.merge(projectPath, wt, `${session.title} (Carapace session)`);
    const message =
      r.kind === 'fast-forward'
        ? `${wt.base} fast-forwarded to ${wt.branch} (${r.commit.slice(0, 8)}).`
        : r.kind === 'merge-commit'
          ? `${wt.branch} merged into ${wt.base} with a merge commit (${r.commit.slice(0, 8)}).`
          : `${wt.base} already has everything from ${wt.branch}.`;
    return { ...r, message };
  }

  async loss(sessionId: string): Promise<{ files: string[]; commits: number }> {
    const { projectPath, wt } = this.sessionWorktree(sessionId);
    return this.o.worktrees.loss(projectPath, wt);
  }

  /**
   * Removes the worktree and its branch, then archives the session: it has no folder to work in any
   * more, but its transcript stays readable and it can be brought back (to be continued in the main
   * checkout). An archive that fails leaves it listed, marked removed; the worktree is gone either way.
   */
  async remove(sessionId: string, force: boolean): Promise<{ removed: true; archived: boolean }> {
    const { session, projectPath, wt } = this.sessionWorktree(sessionId);
    await this.o.worktrees.remove(projectPath, wt, force);
    try {
      this.o.sessions.archive.archive(session.projectId, sessionId);
      return { removed: true, archived: true };
    } catch (error) {
      this.o.logger.warn(
        `Archiving session ${sessionId} after deleting its worktree: ${(error as Error).message}`,
      );
      return { removed: true, archived: false };
    }
  }

  /**
   * A session whose worktree is gone, continued in the main checkout: a new session with its finished
   * messages (as a fork copies them, under new ids), its model and mode, and no worktree. The original
   * stays as it was. Refused while the worktree is still there: that session can simply go on.
   */
  continueInMain(sessionId: string): SessionSummary {
    const projectId = this.o.sessions.projectOf(sessionId);
    const projectPath = this.o.projects.get(projectId).path;
    const listed = this.o.sessions.list(projectId).find((x) => x.id === sessionId);
    if (!listed?.worktree) throw new AppError('NOT_FOUND', 'This session has no worktree.');
    if (worktreeProblem(projectPath, listed.worktree) === null)
      throw new AppError('CONFLICT', 'Its worktree is still there: the session can go on in it.');
    const file = this.o.sessions.transcriptOf(sessionId);
    const title = listed.title;
    const lines = linesAfterCuts(readTranscript(file).lines);
    const head = lines.find((l) => l.type === 'session');
    if (head?.type !== 'session' || head.agent)
      throw new AppError('CORRUPT_DATA', 'This session has no readable header to continue from.');
    const id = randomUUID();
    const at = new Date().toISOString();
    const items: TranscriptLine[] = lines.flatMap((l) =>
      l.type === 'item' && l.item.kind === 'message' && l.item.status !== 'streaming'
        ? [{ type: 'item' as const, item: { ...l.item, id: randomUUID() } }]
        : [],
    );
    const model = [...lines].reverse().find((l) => l.type === 'model');
    const mode = [...lines].reverse().find((l) => l.type === 'mode');
    const copy = path.join(path.dirname(file), `${id}.jsonl`);
    createTranscript(copy, [
      {
        type: 'session',
        version: 1,
        sessionId: id,
        projectPath: head.projectPath,
        createdAt: at,
        model: model?.type === 'model' ? model.model : head.model,
        ...(head.coordinator ? { coordinator: true as const } : {}),
      },
      ...(mode?.type === 'mode' ? [{ ...mode, at }] : []),
      { type: 'title', title: `${title} (main checkout)`.slice(0, 200), at },
      ...items,
    ]);
    return this.o.sessions.adopt(projectId, id, copy);
  }
}
