import path from 'node:path';
import { homedir } from 'node:os';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import { DemoModelClient } from './devtools/demo';
import { CLAUDE_MODELS, DEFAULT_CLAUDE_MODEL, DEMO_MODEL } from './harness/model/catalog';
import type { ModelClient } from './harness/model/model-client';
import { DefaultModelRouter } from './harness/model/router';
import { SettingsService } from './harness/settings/settings-service';
import { builtinTools } from './harness/tools/registry';
import { createAgentCatalog } from './harness/agents/catalog';
import { createSkillCatalog } from './harness/skills/catalog';
import { loadPluginComponents } from './harness/plugins/load-plugins';
import { withPluginAgents } from './harness/plugins/plugin-agents';
import { pluginMcpServers } from './harness/plugins/plugin-mcp';
import { SandboxService } from './harness/bash/sandbox';
import { TrustStore, trustFile } from './harness/permissions/trust';
import { SessionWorktrees } from './workspace/worktrees/session-worktrees';
import { WorktreeService } from './workspace/worktrees/worktree-service';
import { sanitizeEnv } from './platform/env';
import { createHandlers } from './ipc/handlers';
import { IpcRouter } from './ipc/router';
import type { FolderPicker, Services } from './ipc/services';
import type { Logger } from './platform/logger';
import { carapaceHome, dataPaths, managedSettingsFile } from './platform/paths';
import type { SecretStore } from './platform/secrets';
import { EventHub } from './workspace/event-hub';
import { ProjectRegistry } from './workspace/projects';
import { SessionManager } from './workspace/sessions';
import { TabsStore } from './workspace/tabs';
import { TerminalManager } from './workspace/terminals';
import { PermissionBroker } from './workspace/permission-broker';
import { BudgetService } from './workspace/budget-service';
import { claudeCodeDirs, claudeCodeEnabled } from './harness/cost/claude-code';
import { CostService } from './workspace/cost-service';
import { exportTable } from './harness/cost/export';
import { WorkspaceService } from './workspace/workspace-service';
import { SearchThread } from './workspace/search/search-thread';
import { ChangesService, sessionTargetFrom } from './workspace/changes/changes-service';
import { createMemoryService } from './workspace/memory-wiring';
import { createMcpManager } from './harness/mcp/manager';
import { McpService } from './workspace/mcp-service';
import { startTelemetry } from './harness/cost/otel';

export interface CarapaceOptions {
  env: NodeJS.ProcessEnv;
  secrets: SecretStore;
  logger: Logger;
  version: string;
  folderPicker?: FolderPicker | null;
  /** Opens a file in the system editor (the desktop app's shell.openPath); '' or an error message. */
  openPath?: ((absolutePath: string) => Promise<string>) | null;
  /** Replace the demo model's client (benchmarks use a faster one). */
  demoClient?: ModelClient;
  /**
   * The person's home folder (`~/.claude.json`, `~/.claude/`, `~/` in rules); `homedir()` unless
   * given. Tests give a temporary one, so a developer's own files cannot change their results.
   */
  homeDir?: string;
}

export interface Carapace {
  services: Services;
  router: IpcRouter;
  hub: EventHub;
  shutdown(): Promise<void>;
}

/** `CARAPACE_MAX_RETRIES`: how often a failed model call is retried before its error shows. */
function retriesFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['CARAPACE_MAX_RETRIES'];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 20 ? n : undefined;
}

/**
 * The composition root shared by the desktop app and serve mode: every service built once, wired by
 * constructor injection. Transports are added by the caller.
 */
export function createCarapace(options: CarapaceOptions): Carapace {
  const paths = dataPaths(carapaceHome(options.env));
  const userHome = options.homeDir ?? homedir();
  const hub = new EventHub();
  const settings = new SettingsService(paths.settingsFile, options.env, options.secrets);
  const demo = options.demoClient ?? new DemoModelClient();
  const models = new DefaultModelRouter(settings, demo);
  const projects = new ProjectRegistry(paths.stateFile);
  const projectDir = (projectId: string) => paths.projectDir(projectId);
  const sandbox = new SandboxService({ bwrapPath: options.env['CARAPACE_BWRAP'] });
  // Checked now, so the first command already knows whether it can run sandboxed.
  sandbox.status().then(
    (s) => {
      if (!s.available)
        options.logger.warn(`Bash runs without the OS sandbox: ${s.reason ?? 'unknown reason'}`);
    },
    () => undefined,
  );
  // Sessions tell the broker's listeners when a request arrives or is answered (the "waiting" badge).
  const broker = new PermissionBroker(hub, (sessionId) => sessions.waitingChanged(sessionId));
  // The usage ledger (the cost dashboard's figures, the daily budgets' baseline), kept in memory.
  const cost: CostService = new CostService({
    carapaceHome: paths.home,
    hub,
    claudeCode: () => {
      const dirs = claudeCodeDirs(options.env, userHome);
      return { available: dirs.length > 0, enabled: claudeCodeEnabled(settings.current, dirs), dirs };
    },
    projectPath: (projectId) => projects.pathOf(projectId),
    projectOfSession: (sessionId): string | null =>
      sessions.has(sessionId) ? sessions.projectOf(sessionId) : null,
    exportTable,
  });
  // Budgets: limits from the user settings and the managed policy; paused sessions wait as Inbox items.
  const budgets = new BudgetService({
    hub,
    locations: { home: paths.home, policyFile: managedSettingsFile(options.env) },
    daySource: cost,
    onWaitingChanged: (sessionId) => sessions.waitingChanged(sessionId),
  });
  const trust = new TrustStore(trustFile(paths.home));
  const permissionLocations = (projectRoot: string) => ({
    home: paths.home,
    projectRoot,
    policyFile: managedSettingsFile(options.env),
    trust,
  });
  // Each project's MCP servers, started when a session or the MCP page first asks for them.
  const mcp = new McpService({
    // Every project's manager also starts the enabled plugins' servers (scope plugin).
    createManager: (o) =>
      createMcpManager({
        ...o,
        plugins: () => pluginMcpServers(permissionLocations(o.projectRoot), o.env),
      }),
    projectPath: (projectId) => projects.get(projectId).path,
    homeDir: userHome,
    env: options.env,
    locations: permissionLocations,
    onChanged: (view) => hub.emit('mcp.changed', view),
    onUserSettingsWritten: () => settings.reload(),
    logger: options.logger,
  });
  const sessions = new SessionManager({
    homeDir: userHome,
    projectDir,
    projects,
    hub,
    models,
    tools: builtinTools(),
    toolEnv: sanitizeEnv(options.env),
    logger: options.logger,
    defaultModel: () =>
      settings.demoOnly ? DEMO_MODEL_ID : (settings.current.model ?? DEFAULT_CLAUDE_MODEL),
    fallbackModel: () => settings.current.fallbackModel,
    maxRetries: retriesFrom(options.env),
    permissionLocations,
    broker,
    budgets,
    sandbox,
    mcp: (projectId) => mcp.forSession(projectId),
    agentCatalog: (projectRoot, report) =>
      withPluginAgents(
        createAgentCatalog({ projectRoot, home: userHome, carapaceHome: paths.home, onProblems: report }),
        () => loadPluginComponents(permissionLocations(projectRoot)),
      ),
    skillCatalog: (projectRoot, report) =>
      createSkillCatalog({
        projectRoot,
        home: userHome,
        carapaceHome: paths.home,
        onProblems: report,
        plugins: () => loadPluginComponents(permissionLocations(projectRoot)),
      }),
  });
  // The terminal panel is the user's own shell: their environment, unsanitised, outside the sandbox.
  const terminals = new TerminalManager(hub, { env: options.env });
  // A forgotten project's MCP servers end now rather than at shutdown.
  const workspace = new WorkspaceService(projects, sessions, new TabsStore(projectDir), hub, (id) => {
    void mcp.closeProject(id);
  });
  settings.onDidChange((view) => hub.emit('settings.changed', { settings: view }));
  const memory = createMemoryService({
    env: options.env,
    carapaceHome: paths.home,
    homeDir: userHome,
    policyFile: managedSettingsFile(options.env),
    projects,
    sessions,
    hub,
    logger: options.logger,
    models,
    openProjectIds: () => workspace.openProjects().map((p) => p.project.id),
    defaultModel: () =>
      settings.demoOnly ? DEMO_MODEL_ID : (settings.current.model ?? DEFAULT_CLAUDE_MODEL),
  });

  // Optional OpenTelemetry export of cost and tokens (CARAPACE_ENABLE_TELEMETRY=1 and an endpoint);
  // otherwise nothing is loaded. A failure to start it is logged, never fatal.
  const telemetry = startTelemetry(options.env).catch((error: unknown) => {
    options.logger.warn(`OpenTelemetry export not started: ${(error as Error).message}`);
    return null;
  });

  // Search across sessions: each project's index kept beside its transcripts, built when first asked.
  // The index is read, built and queried in a worker thread: never a long block of the main process.
  const search = new SearchThread({ projectsDir: paths.projectsDir });

  const services: Services = {
    version: options.version,
    platform: process.platform,
    homeDir: userHome,
    workspace,
    sessions,
    settings,
    models: { list: () => [DEMO_MODEL, ...CLAUDE_MODELS] },
    folderPicker: options.folderPicker ?? null,
    broker,
    budgets,
    cost,
    permissionLocations,
    trust,
    sandboxStatus: () => sandbox.status(),
    search,
    terminals,
    memory,
    mcp,
    carapaceHome: paths.home,
    // Git worktrees per session, in the data folder or the person's configured base directory.
    worktrees: new SessionWorktrees({
      worktrees: new WorktreeService(path.join(paths.home, 'worktrees'), () => {
        // `worktrees.baseDirectory` in the person's settings: where new worktrees go instead.
        const w: unknown = (settings.current as Record<string, unknown>)['worktrees'];
        const base =
          typeof w === 'object' && w !== null ? (w as Record<string, unknown>)['baseDirectory'] : null;
        return typeof base === 'string' && base !== '' ? base : null;
      }),
      projects,
      sessions,
      workspace,
      logger: options.logger,
      defaultOn: () => {
        const w: unknown = (settings.current as Record<string, unknown>)['worktrees'];
        return typeof w === 'object' && w !== null && (w as Record<string, unknown>)['default'] === true;
      },
    }),
    // The Changes view: a session's worktree against its base, or the project's uncommitted changes.
    changes: new ChangesService({
      // From the session list, not sessions.get: that would load the transcript and flush the event hub.
      target: (id) =>
        sessionTargetFrom(
          sessions.projectRootOf(id),
          sessions.list(sessions.projectOf(id)).find((s) => s.id === id) ?? {},
        ),
      openPath: options.openPath ?? null,
    }),
  };
  return {
    services,
    router: new IpcRouter(createHandlers(services), options.logger),
    hub,
    async shutdown() {
      terminals.closeAll();
      memory.dispose();
      // Saved by its worker while the rest shuts down.
      const searchSaved = search.dispose();
      cost.dispose();
      await sessions.shutdown();
      await mcp.close();
      await (await telemetry)?.shutdown();
      await sandbox.close();
      hub.dispose();
      if (demo instanceof DemoModelClient) await demo.close();
      await searchSaved;
    },
  };
}
