import type { AnyTool } from '../tools/tool';

/**
 * The MCP manager's interface, agreed between the harness (-p) and the workspace UI: the UI codes
 * against these types only, so the manager can change inside without touching it.
 */

/** Where a server's configuration came from (Claude Code's scope names). */
export type McpScope = 'project' | 'user' | 'local' | 'cli' | 'plugin';
export type McpTransportKind = 'stdio' | 'http' | 'sse';
export type McpServerState = 'connecting' | 'connected' | 'failed' | 'disabled' | 'needs-approval';

export interface McpToolInfo {
  name: string;
  fullName: string;
  description: string;
}

export interface McpServerStatus {
  name: string;
  scope: McpScope;
  transport: McpTransportKind;
  state: McpServerState;
  error?: string;
  tools: McpToolInfo[];
  resources: number;
  configFile?: string;
}

export interface McpManager {
  /** Connects every approved, enabled server in parallel, each with the MCP_TIMEOUT; never throws. */
  start(): Promise<void>;
  list(): McpServerStatus[];
  /** The connected servers' tools as Carapace tools named mcp__<server>__<tool> (+ resource tools). */
  tools(): AnyTool[];
  restart(name: string): Promise<McpServerStatus>;
  /** The last lines of the server's stderr / transport errors. */
  logs(name: string): string[];
  onDidChange(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface McpManagerOptions {
  projectRoot: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  /** Project (.mcp.json) servers approved by the person: settings or (UI) workspace trust. */
  approveProjectServer: (name: string) => boolean;
  /** Servers the person switched off (`disabledMcpjsonServers`, the UI): shown as `disabled`, not started. */
  disabledServer?: (name: string, scope: McpScope) => boolean;
  /** --mcp-config values (files or JSON text) and --strict-mcp-config. */
  cliConfigs?: string[];
  strict?: boolean;
  timeoutMs?: number;
  onProblem?: (message: string) => void;
}
