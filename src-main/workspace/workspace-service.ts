import type { ProjectInfo } from '@shared/domain/project';
import type { SessionSummary, SessionWorktree } from '@shared/domain/session';
import type { OpenProject, TabsState, WorkspaceSnapshot } from '@shared/domain/workspace';
import { AppError } from '../platform/errors';
import type { EventHub } from './event-hub';
import { resolveProjectPath, type ProjectRegistry } from './projects';
import type { SessionManager } from './sessions';
import { closeTab, openTab, reorderTabs, type TabsStore } from './tabs';

/** Projects, their sessions and their tab strips, as one workspace the UI can snapshot. */
export class WorkspaceService {
  /**
   * Projects opened in this run, oldest first. Their sessions keep running when a window shows
   * another project, so the window's Inbox and notifications watch all of them.
   */
  private readonly opened = new Set<string>();

  constructor(
    private readonly projects: ProjectRegistry,
    private readonly sessions: SessionManager,
    private readonly tabStore: TabsStore,
    private readonly hub: EventHub,
    /** Told of each project forgotten (the app closes its MCP servers). */
    private readonly onForgotten: (projectId: string) => void = () => undefined,
  ) {}

  recent(): ProjectInfo[] {
    return this.projects.recent();
  }

  open(pathInput: string): WorkspaceSnapshot {
    const info = this.projects.touch(resolveProjectPath(pathInput));
    this.opened.add(info.id);
    this.hub.emit('projects.changed', { recent: this.projects.recent() });
    return this.snapshot(info.id);
  }

  /** The last opened project, if its folder still exists. */
  current(): WorkspaceSnapshot | null {
    const last = this.projects.lastProject;
    if (last === null) return null;
    try {
      return this.open(last);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_INPUT'))
        return null;
      throw error;
    }
  }

  forget(projectPath: string): ProjectInfo[] {
    const recent = this.projects.forget(projectPath);
    // Forgotten from the list, and no longer watched (its sessions still finish what they are doing).
    for (const id of this.opened)
      if (this.projects.pathOf(id) === projectPath) {
        this.opened.delete(id);
        this.onForgotten(id);
      }
    this.hub.emit('projects.changed', { recent });
    return recent;
  }

  /** Every project opened in this run, with its sessions: what the Inbox and notifications watch. */
  openProjects(): OpenProject[] {
    return [...this.opened].map((id) => ({
      project: this.projects.get(id),
      sessions: this.sessions.list(id),
    }));
  }

  snapshot(projectId: string): WorkspaceSnapshot {
    const project = this.projects.get(projectId);
    const sessions = this.sessions.list(projectId);
    return { project, sessions, tabs: this.tabs(projectId) };
  }

  createSession(
    projectId: string,
    model?: string,
    coordinator = false,
    worktree?: SessionWorktree,
  ): SessionSummary {
    const session = this.sessions.create(projectId, model, coordinator, worktree);
    try {
      this.updateTabs(projectId, (t) => openTab(t, session.id));
    } catch (error) {
      // The session is saved; failing now would report a session that exists as lost. Its tab is
      // kept in memory (the store updates before it writes) and saved with the next change.
      if (!(error instanceof AppError)) throw error;
      this.hub.emit('tabs.changed', { projectId, tabs: this.tabs(projectId) });
    }
    return session;
  }

  tabs(projectId: string): TabsState {
    this.projects.get(projectId);
    return this.tabStore.get(projectId, (id) => this.sessions.has(id));
  }

  openTab(projectId: string, sessionId: string): TabsState {
    this.requireSession(projectId, sessionId);
    // Opening a background session's tab brings it back.
    this.sessions.foreground(sessionId);
    return this.updateTabs(projectId, (t) => openTab(t, sessionId));
  }

  activateTab(projectId: string, sessionId: string): TabsState {
    return this.openTab(projectId, sessionId);
  }

  /**
   * Sends a session to the background: its tab closes and it keeps working (the window tells the
   * person when it ends or needs them). Bringing it back reopens its tab.
   */
  setBackground(sessionId: string, background: boolean): SessionSummary {
    const projectId = this.sessions.projectOf(sessionId);
    const summary = this.sessions.setBackground(sessionId, background);
    this.updateTabs(projectId, (t) => (background ? closeTab(t, sessionId) : openTab(t, sessionId)));
    return summary;
  }

  closeTab(projectId: string, sessionId: string): TabsState {
    return this.updateTabs(projectId, (t) => closeTab(t, sessionId));
  }

  reorderTabs(projectId: string, order: readonly string[]): TabsState {
    return this.updateTabs(projectId, (t) => reorderTabs(t, order));
  }

  private requireSession(projectId: string, sessionId: string): void {
    this.sessions.list(projectId);
    if (!this.sessions.has(sessionId) || this.sessions.projectOf(sessionId) !== projectId) {
      throw new AppError('NOT_FOUND', `Project ${projectId} has no session ${sessionId}.`);
    }
  }

  private updateTabs(projectId: string, change: (tabs: TabsState) => TabsState): TabsState {
    const tabs = this.tabStore.set(projectId, change(this.tabs(projectId)));
    this.hub.emit('tabs.changed', { projectId, tabs });
    return tabs;
  }
}
