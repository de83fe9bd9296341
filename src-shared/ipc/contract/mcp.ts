import { z } from 'zod';
import { McpAddScope, McpProjectView, McpServerConfigInput, McpServerName } from '../../domain/mcp';
import { channel, ProjectRef } from './common';

/**
 * The Settings MCP page: a project's MCP servers (state, tools, logs), restart, enable/disable and
 * "add a server". Servers are addressed by project id and name, never by a path; every config write
 * happens in the main process, into the files it chooses.
 */

const ServerRef = z.strictObject({ projectId: z.string().min(1).max(500), name: McpServerName });

export const requests = {
  /** The project's servers as they are now (starting them the first time the project asks). */
  'mcp.list': channel(ProjectRef, McpProjectView),
  /** Closes and connects one server again; the answer has its new state. */
  'mcp.restart': channel(ServerRef, McpProjectView),
  /** The last lines of a server's stderr and transport errors. */
  'mcp.logs': channel(ServerRef, z.array(z.string())),
  /**
   * Switches a server on or off: a project server through `disabledMcpjsonServers` in the project's
   * `.claude/settings.local.json` (turning one on also approves it for this folder), any other in
   * Carapace's user settings (`disabledMcpServers`).
   */
  'mcp.setEnabled': channel(ServerRef.extend({ enabled: z.boolean() }), McpProjectView),
  /** Adds a server to the user's config or the project's `.mcp.json`; CONFLICT if the name is taken. */
  'mcp.add': channel(
    z.strictObject({
      projectId: z.string().min(1).max(500),
      name: McpServerName,
      scope: McpAddScope,
      server: McpServerConfigInput,
    }),
    McpProjectView,
  ),
} as const;

export const events = {
  /** A project's servers changed (connected, failed, restarted, configuration edited). */
  'mcp.changed': McpProjectView,
} as const;
