import { statSync } from 'node:fs';
import path from 'node:path';
import type { McpAddScope, McpProjectView, McpServerConfigInput, McpServerView } from '@shared/domain/mcp';
import { userConfigFile } from '../harness/mcp/config';
import type { McpManager, McpManagerOptions, McpServerStatus } from '../harness/mcp/types';
import { localSettingsFile, type SourceLocations } from '../harness/permissions/settings-sources';
import { PROJECT_MCP_FILE, trustKey } from '../harness/permissions/trust';
import type { AnyTool } from '../harness/tools/tool';
import { AppError, describeError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import {
  mcpApproval,
  PROJECT_DISABLED_KEY,
  projectServerConfigs,
  USER_DISABLED_KEY,
  userSettingsFile,
  type McpApproval,
} from './mcp-approval';
import { addServerTo, assertNoSymlink, serverConfig, setListed } from './mcp-config-writes';

export interface McpServiceDeps {
  /** harness/mcp/manager.ts `createMcpManager` (injected: tests and the composition root choose). */
  createManager(o: McpManagerOptions): McpManager;
  projectPath(projectId: string): string;
  /** The person's home: `~/.claude.json` holds user-scope servers (as Claude Code keeps them). */
  homeDir: string;
  /** The person's environment (ANTHROPIC_ variables are kept from the servers). */
  env: NodeJS.ProcessEnv;
  locations(projectRoot: string): SourceLocations;
  /** Told whenever a project's servers change; the IPC layer sends `mcp.changed`. */
  onChanged(view: McpProjectView): void;
  /** Carapace's user settings file was written here (the settings service re-reads it). */
  onUserSettingsWritten?: () => void;
  timeoutMs?: number | undefined;
  logger: Logger;
}

interface Entry {
  manager: McpManager;
  started: Promise<void>;
  /** What approval and configuration looked like when this manager was made. */
  fingerprint: string;
  approval: McpApproval;
  problems: string[];
  dispose: () => void;
}

/**
 * What servers see of the environment: the person's own (servers are theirs to configure and often
 * need a token through `${VAR}`), but never the key the app is billed with.
 */
function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('ANTHROPIC_')));
}

const toolPrefix = (server: string) => `mcp__${server.replace(/[^A-Za-z0-9_-]/g, '_')}__`;

/**
 * One MCP manager per project that asks for one (a session, the MCP page), made on first use and
 * closed when the project is forgotten or the app shuts down. The approval and configuration files are looked at again whenever tools or the
 * list are asked for: trust given in the prompt, a server switched on or off, an edited `.mcp.json`
 * make a fresh manager, so a running session gets the change at its next model request.
 */
export class McpService {
  private readonly entries = new Map<string, Entry>();
  private closed = false;
  private readonly listeners = new Set<(view: McpProjectView) => void>();

  constructor(private readonly deps: McpServiceDeps) {}

  private fingerprintOf(approval: McpApproval): string {
    let user = 'none';
    try {
      const s = statSync(userConfigFile(this.deps.homeDir));
      user = `${s.mtimeMs}:${s.size}`;
    } catch {
      // No user config: nothing of it to follow.
    }
    return `${approval.fingerprint()}|${user}`;
  }

  /** The project's manager, made (and started) on first use, or made again if its inputs changed. */
  private entry(projectId: string): Entry {
    if (this.closed) throw new AppError('UNAVAILABLE', 'The app is shutting down.');
    const root = this.deps.projectPath(projectId);
    const current = this.entries.get(projectId);
    if (current && current.fingerprint === this.fingerprintOf(current.approval)) return current;
    if (current) this.retire(projectId, current);
    const approval = mcpApproval(this.deps.locations(root));
    const problems: string[] = [];
    const manager = this.deps.createManager({
      projectRoot: root,
      homeDir: this.deps.homeDir,
      env: serverEnv(this.deps.env),
      approveProjectServer: (name) => approval.approve(name),
      disabledServer: (name, scope) => approval.isDisabled(name, scope),
      ...(this.deps.timeoutMs !== undefined ? { timeoutMs: this.deps.timeoutMs } : {}),
      onProblem: (message) => {
        if (!problems.includes(message)) problems.push(message);
      },
    });
    const entry: Entry = {
      manager,
      approval,
      problems,
      fingerprint: this.fingerprintOf(approval),
      started: Promise.resolve(),
      dispose: () => undefined,
    };
    const unsubscribe = manager.onDidChange(() => {
      if (this.entries.get(projectId) === entry) this.changed(this.viewOf(projectId, entry));
    });
    entry.dispose = unsubscribe;
    this.entries.set(projectId, entry);
    entry.started = manager.start().catch((error: unknown) => {
      // start() is not supposed to throw; if it does, the page says so rather than the app failing.
      problems.push(`MCP servers could not start: ${describeError(error)}`);
    });
    void entry.started.then(() => {
      if (this.entries.get(projectId) === entry) this.changed(this.viewOf(projectId, entry));
    });
    return entry;
  }

  private changed(view: McpProjectView): void {
    this.deps.onChanged(view);
    for (const l of this.listeners) l(view);
  }

  private retire(projectId: string, entry: Entry): void {
    entry.dispose();
    this.entries.delete(projectId);
    void entry.manager.close().catch((error: unknown) => {
      this.deps.logger.warn(`Closing MCP servers: ${describeError(error)}`);
    });
  }

  private viewOf(projectId: string, entry: Entry): McpProjectView {
    const servers = entry.manager.list().map((s) => this.serverView(entry, s));
    // A listed server's own trouble shows on its row (and goes when it recovers); the rest stays here.
    const own = (p: string) => servers.some((s) => p.startsWith(`MCP server "${s.name}"`));
    return { projectId, servers, problems: entry.problems.filter((p) => !own(p)) };
  }

  private serverView(entry: Entry, s: McpServerStatus): McpServerView {
    // A switch the manager did not know about still shows (and keeps its tools away: see tools()).
    const off = s.state !== 'disabled' && entry.approval.isDisabled(s.name, s.scope);
    return {
      name: s.name,
      scope: s.scope,
      transport: s.transport,
      state: off ? 'disabled' : s.state,
      error: off ? null : (s.error ?? null),
      tools: off
        ? []
        : s.tools.map((t) => ({ name: t.name, fullName: t.fullName, description: t.description })),
      resources: off ? 0 : s.resources,
      configFile: s.configFile ?? null,
    };
  }

  /** Waits for the project's servers' first start (each bounded by the MCP timeout). */
  async ready(projectId: string): Promise<void> {
    await this.entry(projectId).started;
  }

  view(projectId: string): McpProjectView {
    return this.viewOf(projectId, this.entry(projectId));
  }

  /** The tools of the project's connected, switched-on servers, as the model sees them. */
  tools(projectId: string): AnyTool[] {
    if (this.closed) return [];
    const entry = this.entry(projectId);
    const off = entry.manager
      .list()
      .filter((s) => s.state !== 'disabled' && entry.approval.isDisabled(s.name, s.scope))
      .map((s) => toolPrefix(s.name));
    const tools = entry.manager.tools();
    return off.length === 0 ? tools : tools.filter((t) => !off.some((p) => t.name.startsWith(p)));
  }

  private server(projectId: string, name: string): { entry: Entry; status: McpServerStatus } {
    const entry = this.entry(projectId);
    const status = entry.manager.list().find((s) => s.name === name);
    if (!status) throw new AppError('NOT_FOUND', `There is no MCP server "${name}" in this project.`);
    return { entry, status };
  }

  async restart(projectId: string, name: string): Promise<McpProjectView> {
    const { entry } = this.server(projectId, name);
    await entry.started;
    await entry.manager.restart(name);
    return this.view(projectId);
  }

  logs(projectId: string, name: string): string[] {
    return this.server(projectId, name).entry.manager.logs(name);
  }

  /**
   * A project server is switched in the project's `.claude/settings.local.json`; switching it on also
   * approves it for this folder (the person asked for it by name, as an "Always allow" does). Any
   * other server is switched in Carapace's user settings.
   */
  setEnabled(projectId: string, name: string, enabled: boolean): McpProjectView {
    const { status } = this.server(projectId, name);
    const root = this.deps.projectPath(projectId);
    const loc = this.deps.locations(root);
    if (status.scope === 'project') {
      const local = localSettingsFile(root);
      assertNoSymlink(root, path.relative(root, local));
      if (enabled) {
        setListed(userSettingsFile(loc), PROJECT_DISABLED_KEY, name, false);
        this.deps.onUserSettingsWritten?.();
        const config = projectServerConfigs(root)[name];
        if (config !== undefined) loc.trust?.accept(root, [trustKey.mcpServer(name, config)]);
      }
      setListed(local, PROJECT_DISABLED_KEY, name, !enabled);
    } else {
      setListed(userSettingsFile(loc), USER_DISABLED_KEY, name, !enabled);
      this.deps.onUserSettingsWritten?.();
    }
    // Still off: another file the app does not write (the project's settings, the policy) says so.
    if (enabled && mcpApproval(loc).isDisabled(name, status.scope))
      throw new AppError(
        'CONFLICT',
        `"${name}" stays off: disabledMcpjsonServers in the project's .claude/settings.json or the managed policy lists it.`,
      );
    return this.view(projectId);
  }

  /** Adds a server to the user's `~/.claude.json` or the project's `.mcp.json`, approved, and starts it. */
  add(projectId: string, name: string, scope: McpAddScope, input: McpServerConfigInput): McpProjectView {
    const root = this.deps.projectPath(projectId);
    const config = serverConfig(input);
    if (scope === 'project') {
      assertNoSymlink(root, PROJECT_MCP_FILE);
      addServerTo(path.join(root, PROJECT_MCP_FILE), name, config);
      // The person wrote this entry themselves: it needs no second approval.
      this.deps.locations(root).trust?.accept(root, [trustKey.mcpServer(name, config)]);
    } else addServerTo(userConfigFile(this.deps.homeDir), name, config, 0o600);
    return this.view(projectId);
  }

  /**
   * What a session's runtime gets: the project's servers through this service, so a manager made
   * anew (trust given, a server switched) is the one the session's next request uses. The session
   * does not own them: its close() leaves them running for the project's other sessions.
   */
  forSession(projectId: string): McpManager {
    // Started now, not at the first request: servers connect while the person types.
    if (!this.closed) this.entry(projectId);
    return {
      start: () => this.ready(projectId),
      list: () => (this.closed ? [] : this.entry(projectId).manager.list()),
      tools: () => this.tools(projectId),
      restart: async (name) => {
        await this.restart(projectId, name);
        return this.server(projectId, name).status;
      },
      logs: (name) => this.logs(projectId, name),
      onDidChange: (listener) => {
        const wrapped = (view: McpProjectView) => {
          if (view.projectId === projectId) listener();
        };
        this.listeners.add(wrapped);
        return () => this.listeners.delete(wrapped);
      },
      close: () => Promise.resolve(),
    };
  }

  /**
   * Closes one project's servers (the project was forgotten): their processes end now, not at app
   * shutdown. A session of it still finishing its turn starts them again at its next request.
   */
  async closeProject(projectId: string): Promise<void> {
    const entry = this.entries.get(projectId);
    if (!entry) return;
    entry.dispose();
    this.entries.delete(projectId);
    await entry.manager.close().catch((error: unknown) => {
      this.deps.logger.warn(`Closing MCP servers: ${describeError(error)}`);
    });
  }

  /** Closes every project's servers (app shutdown); nothing starts afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const e of all) e.dispose();
    await Promise.all(all.map((e) => e.manager.close().catch(() => undefined)));
  }
}
