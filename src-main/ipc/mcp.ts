import type { HandlerMap } from './router';
import type { Services } from './services';

type McpChannels = Extract<keyof HandlerMap, `mcp.${string}`>;

/**
 * The Settings MCP page. Projects are addressed by id (McpService resolves only ids the registry
 * knows: an unknown one is NOT_FOUND before anything starts) and servers by name; which files a
 * change goes to is decided there, never by the window.
 */
export function mcpHandlers(s: Services): Pick<HandlerMap, McpChannels> {
  return {
    'mcp.list': ({ projectId }) => s.mcp.view(projectId),
    'mcp.restart': ({ projectId, name }) => s.mcp.restart(projectId, name),
    'mcp.logs': ({ projectId, name }) => s.mcp.logs(projectId, name),
    'mcp.setEnabled': ({ projectId, name, enabled }) => s.mcp.setEnabled(projectId, name, enabled),
    'mcp.add': ({ projectId, name, scope, server }) => s.mcp.add(projectId, name, scope, server),
  };
}
