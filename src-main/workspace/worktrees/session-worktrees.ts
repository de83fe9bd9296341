import { randomUUID } from 'node:crypto';
import type { SessionSummary } from '@shared/domain/session';
import type {
  WorktreeRepoInfo,
  WorktreeStatusView,
  WorktreeMergeResult,
} from '@shared/ipc/contract/worktrees';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { ProjectRegistry } from '../projects';
import type { SessionManager } from '../sessions';
import type { WorkspaceService } from '../workspace-service';
import type { WorktreeService } from './worktree-service';

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

  async remove(sessionId: string, force: boolean): Promise<{ removed: true }> {
    const { projectPath, wt } = this.sessionWorktree(sessionId);
    await this.o.worktrees.remove(projectPath, wt, force);
    return { removed: true };
  }
}
