import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { spellHidden } from '../permissions/visible-text';
import type { AnyTool } from '../tools/tool';
import { loadServerConfigs, type ServerEntry } from './config';
import { connectServer, DEFAULT_MCP_TIMEOUT_MS } from './connect';
import { MAX_DESCRIPTION_CHARS, mcpTool, resourceTools, toolTimeoutMs } from './mcp-tools';
import { MAX_TOOL_NAME, mcpToolName, normalizeServerName } from './names';
import { mcpOutputLimit } from './result';
import type { McpManager, McpManagerOptions, McpScope, McpServerStatus, McpToolInfo } from './types';

export type { McpManager, McpManagerOptions, McpServerStatus } from './types';

/** A tool's schema rides in every request: a server must not fill the context with one. */
const MAX_SCHEMA_CHARS = 100_000;
/**
 * One server's share of every request: at most this many tools, and this many characters of their
 * schemas and descriptions together. A server listing thousands of tools (or many wide ones) would
 * otherwise make every request too long to send, and the session unusable; the first ones are kept.
 */
export const MAX_SERVER_TOOLS = 200;

/**
 * A name the server chose, as shown in logs and problems (printed on a terminal's stderr by -p): cut,
 * quoted, with control characters and line breaks escaped so an escape sequence cannot drive the
 * terminal nor a line break forge another line.
 */
const quoted = (name: string) => JSON.stringify(spellHidden(name.slice(0, 80)));
export const MAX_SERVER_SCHEMA_CHARS = 400_000;
/** Which scope keeps a shared tool prefix: the lower, the more the person's own word. */
const PREFIX_RANK: Record<McpScope, number> = { cli: 0, local: 1, user: 2, plugin: 3, project: 4 };
/** How many of a server's stderr lines are kept for `logs`. */
const LOG_LINES = 200;

interface Server {
  entry: ServerEntry;
  /** The name in its tools' names (`mcp__<this>__…`). */
  toolPrefix: string;
  status: McpServerStatus;
  client: Client | null;
  tools: AnyTool[];
  logs: string[];
  /** Why it can never start as configured (a name clash); null when it can. */
  blocked: string | null;
  /** Bumped at every (re)connect, so a stale connection's late events change nothing. */
  generation: number;
}

/** MCP_TIMEOUT (milliseconds), else Claude Code's default. */
export function startTimeoutMs(env: NodeJS.ProcessEnv): number {
  const set = Number(env['MCP_TIMEOUT']);
  return Number.isInteger(set) && set > 0 ? set : DEFAULT_MCP_TIMEOUT_MS;
}

/**
 * The session's MCP servers: reads their configurations, starts the approved and enabled ones in
 * parallel (each within MCP_TIMEOUT; one failing or hanging never holds up the others or the session),
 * and offers their tools as `mcp__<server>__<tool>`.
 */
export function createMcpManager(
  o: McpManagerOptions & {
    /** The enabled plugins' servers (scope plugin; plugins/plugin-mcp.ts), below every other source. */
    plugins?: () => { servers: ServerEntry[]; problems: string[] };
  },
): McpManager {
  const timeoutMs = o.timeoutMs ?? startTimeoutMs(o.env);
  const outputLimit = mcpOutputLimit(o.env);
  const callTimeout = toolTimeoutMs(o.env);
  const listeners = new Set<() => void>();
  const servers = new Map<string, Server>();
  let closed = false;
  /** Connections given up on, still closing (their processes ending). */
  const closings = new Set<Promise<void>>();
  let toolCache: AnyTool[] | null = null;
  const resources = resourceTools({
    outputLimit,
    withResources: () =>
      [...servers.values()].flatMap((s) =>
        s.client && s.status.state === 'connected' && s.status.resources > 0
          ? [{ name: s.entry.name, client: s.client }]
          : [],
      ),
  });
  const changed = () => {
    toolCache = null;
    for (const l of [...listeners]) {
      try {
        l();
      } catch (error) {
        o.onProblem?.(`MCP change listener failed: ${(error as Error).message}`);
      }
    }
  };
  const log = (s: Server, line: string) => {
    s.logs.push(line);
    if (s.logs.length > LOG_LINES) s.logs.splice(0, s.logs.length - LOG_LINES);
  };

  function load(): void {
    const loaded = loadServerConfigs({
      projectRoot: o.projectRoot,
      homeDir: o.homeDir,
      env: o.env,
      ...(o.cliConfigs ? { cliConfigs: o.cliConfigs } : {}),
      ...(o.strict !== undefined ? { strict: o.strict } : {}),
    });
    if (o.plugins && o.strict !== true) {
      // A plugin's server never replaces one the person or the project configured by that name.
      const fromPlugins = o.plugins();
      loaded.problems.push(...fromPlugins.problems);
      const taken = new Set(loaded.servers.map((s) => s.name));
      loaded.servers.push(...fromPlugins.servers.filter((s) => !taken.has(s.name)));
    }
    for (const p of loaded.problems) o.onProblem?.(p);
    // Who keeps a tool prefix two names share (`github` and `github.` are both `mcp__github__…`):
    // the person's own servers first, a repository's last. Claimed in list order, a `.mcp.json`
    // server (listed before the user's) took the prefix, knocked the person's server out, and once
    // approved had its tools fall under the person's `mcp__github` rules.
    const owners = new Map<string, string>();
    for (const entry of [...loaded.servers].sort((a, b) => PREFIX_RANK[a.scope] - PREFIX_RANK[b.scope])) {
      const prefix = normalizeServerName(entry.name);
      if (prefix !== '' && !owners.has(prefix)) owners.set(prefix, entry.name);
    }
    for (const entry of loaded.servers) {
      const toolPrefix = normalizeServerName(entry.name);
      const status: McpServerStatus = {
        name: entry.name,
        scope: entry.scope,
        transport: entry.config.type,
        state: 'connecting',
        tools: [],
        resources: 0,
        ...(entry.configFile !== undefined ? { configFile: entry.configFile } : {}),
      };
      const owner = owners.get(toolPrefix);
      const clash = owner !== undefined && owner !== entry.name ? owner : undefined;
      if (toolPrefix === '') {
        status.state = 'failed';
        status.error = 'the name has no letters or digits to name its tools by';
      } else if (clash !== undefined) {
        status.state = 'failed';
        status.error = `its tools would be named like those of "${clash}" (mcp__${toolPrefix}__…); rename one`;
      } else if (o.disabledServer?.(entry.name, entry.scope) === true) status.state = 'disabled';
      else if (entry.scope === 'project' && !o.approveProjectServer(entry.name))
        status.state = 'needs-approval';
      if (status.error) o.onProblem?.(`MCP server "${entry.name}": ${status.error}`);
      servers.set(entry.name, {
        entry,
        toolPrefix,
        status,
        blocked: status.error ?? null,
        client: null,
        tools: [],
        logs: [],
        generation: 0,
      });
    }
  }

  /** A server's tools as Carapace tools, leaving out (and reporting) what the API could not take. */
  function toolsOf(
    s: Server,
    listed: readonly McpTool[],
    client: Client,
  ): { infos: McpToolInfo[]; tools: AnyTool[] } {
    const infos: McpToolInfo[] = [];
    const tools: AnyTool[] = [];
    const taken = new Set<string>();
    let chars = 0;
    const overCount: string[] = [];
    const overChars: string[] = [];
    for (const t of listed) {
      const fullName = mcpToolName(s.toolPrefix, t.name);
      const why = taken.has(fullName)
        ? `${fullName} is another of its tools' name`
        : fullName.length > MAX_TOOL_NAME
          ? `${fullName} is over ${MAX_TOOL_NAME} characters`
          : JSON.stringify(t.inputSchema).length > MAX_SCHEMA_CHARS
            ? `its input schema is over ${MAX_SCHEMA_CHARS} characters, sent with every request`
            : null;
      if (why !== null) {
        log(s, `tool ${quoted(t.name)} left out: ${why}`);
        o.onProblem?.(`MCP server "${s.entry.name}": tool ${quoted(t.name)} left out (${why})`);
        continue;
      }
      // Past the server's budget: counted and said once below, not a line per tool.
      const size =
        JSON.stringify(t.inputSchema).length + Math.min(t.description?.length ?? 0, MAX_DESCRIPTION_CHARS);
      if (taken.size >= MAX_SERVER_TOOLS) {
        overCount.push(t.name);
        continue;
      }
      if (chars + size > MAX_SERVER_SCHEMA_CHARS) {
        overChars.push(t.name);
        continue;
      }
      chars += size;
      taken.add(fullName);
      infos.push({ name: t.name, fullName, description: t.description ?? '' });
      tools.push(
        mcpTool({ fullName, serverName: s.entry.name, tool: t, client, outputLimit, timeoutMs: callTimeout }),
      );
    }
    const over = [...overChars, ...overCount];
    if (over.length > 0) {
      const why = [
        ...(overCount.length > 0 ? [`tools past the first ${MAX_SERVER_TOOLS}`] : []),
        ...(overChars.length > 0
          ? [`tools over ${MAX_SERVER_SCHEMA_CHARS} characters of schemas in all`]
          : []),
      ].join(' and ');
      const shown = over.slice(0, 5).map(quoted).join(', ');
      const line = `${why} (sent with every request) left out (${over.length} of them: ${shown}${over.length > 5 ? ', …' : ''})`;
      log(s, line);
      o.onProblem?.(`MCP server "${s.entry.name}": ${line}`);
    }
    return { infos, tools };
  }

  async function connect(s: Server): Promise<void> {
    const generation = ++s.generation;
    s.status = { ...s.status, state: 'connecting', tools: [], resources: 0 };
    delete s.status.error;
    s.tools = [];
    changed();
    try {
      const c = await connectServer(s.entry, {
        projectRoot: o.projectRoot,
        env: o.env,
        timeoutMs,
        log: (line) => log(s, line),
        // The server changed its tools (tools/list_changed): the next turn offers the new list.
        onToolsChanged: (listed) => {
          if (s.generation !== generation || closed || !s.client || s.status.state !== 'connected') return;
          const { infos, tools } = toolsOf(s, listed, s.client);
          s.tools = tools;
          s.status = { ...s.status, tools: infos };
          log(s, `tools changed: ${infos.length} now`);
          changed();
        },
        onClosing: (closing) => {
          closings.add(closing);
          void closing.finally(() => closings.delete(closing));
        },
        onClosed: () => {
          if (s.generation !== generation || closed) return;
          s.client = null;
          s.tools = [];
          s.status = {
            ...s.status,
            state: 'failed',
            error: 'the connection closed',
            tools: [],
            resources: 0,
          };
          log(s, 'connection closed');
          o.onProblem?.(`MCP server "${s.entry.name}": the connection closed`);
          changed();
        },
      });
      if (s.generation !== generation || closed) {
        await c.client.close().catch(() => undefined);
        return;
      }
      const { infos, tools } = toolsOf(s, c.tools, c.client);
      s.client = c.client;
      s.tools = tools;
      s.status = {
        ...s.status,
        transport: c.transport,
        state: 'connected',
        tools: infos,
        resources: c.resources.length,
      };
    } catch (error) {
      if (s.generation !== generation) return;
      const message = (error as Error).message;
      log(s, `failed: ${message}`);
      s.status = { ...s.status, state: 'failed', error: message, tools: [], resources: 0 };
      o.onProblem?.(`MCP server "${s.entry.name}" failed to start: ${message}`);
    }
    changed();
  }

  async function disconnect(s: Server): Promise<void> {
    s.generation++;
    const client = s.client;
    s.client = null;
    s.tools = [];
    await client?.close().catch(() => undefined);
  }

  let started: Promise<void> | null = null;
  return {
    start() {
      started ??= (async () => {
        try {
          load();
        } catch (error) {
          o.onProblem?.(`MCP servers could not be loaded: ${(error as Error).message}`);
          return;
        }
        changed();
        await Promise.all([...servers.values()].filter((s) => s.status.state === 'connecting').map(connect));
      })();
      return started;
    },
    list: () => [...servers.values()].map((s) => ({ ...s.status, tools: [...s.status.tools] })),
    tools() {
      toolCache ??= [
        ...[...servers.values()].flatMap((s) => (s.status.state === 'connected' ? s.tools : [])),
        ...([...servers.values()].some((s) => s.status.state === 'connected' && s.status.resources > 0)
          ? resources
          : []),
      ];
      return toolCache;
    },
    async restart(name) {
      const s = servers.get(name);
      if (!s) throw new Error(`No MCP server named "${name}".`);
      await disconnect(s);
      // Approval and enabling are read again: the person may have just changed them.
      if (o.disabledServer?.(name, s.entry.scope) === true)
        s.status = { ...s.status, state: 'disabled', tools: [], resources: 0 };
      else if (s.entry.scope === 'project' && !o.approveProjectServer(name))
        s.status = { ...s.status, state: 'needs-approval', tools: [], resources: 0 };
      else if (s.blocked === null) await connect(s);
      changed();
      return { ...s.status };
    },
    logs: (name) => [...(servers.get(name)?.logs ?? [])],
    onDidChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      await Promise.all([...servers.values()].map(disconnect));
      // Connections still being made end themselves once they see the session closed.
      await started;
      await Promise.all([...closings]);
      listeners.clear();
    },
  };
}
