import { consolidateNow } from '../harness/memory/dream/consolidate';
import { loadMemorySettings } from '../harness/permissions/memory-settings';
import type { ModelRouter } from '../harness/model/model-client';
import { memoryDirFor } from '../harness/memory/dir/paths';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import { consolidationUsageRecorder } from './consolidation-usage';
import { MemoryFiles } from './memory-files';
import { MemoryService } from './memory-service';
import type { ProjectRegistry } from './projects';
import type { SessionManager } from './sessions';

export interface MemoryWiring {
  env: NodeJS.ProcessEnv;
  carapaceHome: string;
  homeDir: string;
  policyFile: string;
  projects: ProjectRegistry;
  sessions: SessionManager;
  hub: EventHub;
  logger: Logger;
  models: ModelRouter;
  /** Ids of the projects open in this run: a project forgotten from the list stops being watched. */
  openProjectIds(): string[];
  /** The model "Consolidate now" uses: the one new sessions get (consolidation is real editing work). */
  defaultModel(): string;
}

/**
 * Builds the memory browser's service for the composition root. The memory folder is found the way
 * sessions find it (its folder from policy and user settings only; the project's settings, shared or
 * local, may not move it), so the browser edits the files the model reads.
 */
export function createMemoryService(w: MemoryWiring): MemoryService {
  const settingsFor = (projectRoot: string) =>
    loadMemorySettings({
      locations: { home: w.carapaceHome, projectRoot, policyFile: w.policyFile },
      userHome: w.homeDir,
      env: w.env,
    });
  const projectRoot = (projectId: string) => w.projects.get(projectId).path;
  const memoryDir = (root: string) =>
    memoryDirFor({
      carapaceHome: w.carapaceHome,
      projectRoot: root,
      settingsDir: settingsFor(root).autoMemoryDirectory,
    });
  const files = new MemoryFiles({
    projectRoot,
    locations: (root) => ({
      projectRoot: root,
      homeDir: w.homeDir,
      carapaceHome: w.carapaceHome,
      memoryDir: memoryDir(root),
    }),
    autoMemoryDisabled: (root) => !settingsFor(root).autoMemoryEnabled,
    onChange: (projectId, change) => w.hub.emit('memory.changed', { projectId, ...change }),
    onWatchError: (error) => w.logger.warn('Memory watcher failed', error),
  });
  // A forgotten project's watchers close with it (the window may never send its unwatch).
  const unsubscribe = w.hub.subscribe((event) => {
    if (event === 'projects.changed') files.closeProjectsExcept(new Set(w.openProjectIds()));
  });
  return new MemoryService({
    files,
    disposers: [unsubscribe],
    projectRoot,
    projectRootOf: (sessionId) => w.sessions.projectRootOf(sessionId),
    loadedContext: (sessionId) => w.sessions.loadedContext(sessionId),
    consolidate: async (root) => {
      const model = w.defaultModel();
      // Its usage goes to a transcript of its own, where the usage ledger finds it.
      const usage = consolidationUsageRecorder({
        carapaceHome: w.carapaceHome,
        projectRoot: root,
        model,
        onError: (error) => w.logger.warn("The consolidation's usage could not be written", error),
      });
      try {
        const result = await consolidateNow({
          memoryDir: memoryDir(root),
          enabled: settingsFor(root).autoMemoryEnabled,
          client: w.models.clientFor(model),
          model,
          onUsage: usage.onUsage,
        });
        return { ran: result.ran, message: result.message };
      } finally {
        usage.close();
      }
    },
  });
}
