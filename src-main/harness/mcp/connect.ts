import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Resource, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { absolutePathEntries } from '../../platform/env';
import type { ServerEntry } from './config';
import type { McpTransportKind } from './types';

/** Claude Code's default start-up timeout (MCP_TIMEOUT, milliseconds). */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;
/** A server offering more than this is cut short (a hostile or broken server paging forever). */
const MAX_PAGES = 50;

export class McpTimeoutError extends Error {
  constructor(ms: number) {
    super(`did not finish starting within ${ms} ms (MCP_TIMEOUT)`);
    this.name = 'McpTimeoutError';
  }
}

export interface Connected {
  client: Client;
  transport: McpTransportKind;
  tools: McpTool[];
  resources: Resource[];
}

export interface ConnectOptions {
  projectRoot: string;
  /** The session's environment: a stdio server inherits only its safe variables (PATH, HOME, …). */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** A line of the server's stderr, or a transport error. */
  log: (line: string) => void;
  /** The connection ended after it was made (the process exited, the HTTP session dropped). */
  onClosed: () => void;
  /**
   * A connection given up on (timed out, failed) is closed without holding up start-up (a stdio
   * server that ignores its closed stdin gets 2 s before SIGTERM); whoever closes the session waits.
   */
  onClosing: (closing: Promise<void>) => void;
  /** The server's tools, listed again after it said they changed (only once connected). */
  onToolsChanged?: (tools: McpTool[]) => void;
}

/** The SDK is loaded when the first server connects: a session without MCP never pays for it. */
async function sdk() {
  const [client, stdio, http, sse] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
  ]);
  return { ...client, ...stdio, ...http, ...sse };
}

/** The SDK's getDefaultEnvironment, but of the session's environment rather than this process's. */
function inherited(env: NodeJS.ProcessEnv, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    // As the SDK: values that look like shell functions are skipped.
    if (value !== undefined && !value.startsWith('()')) out[name] = value;
  }
  // A server starts in the project folder: a relative PATH entry would find the repository's `npx`.
  if (out['PATH'] !== undefined) out['PATH'] = absolutePathEntries(out['PATH']);
  return out;
}

function linesTo(log: (line: string) => void) {
  let rest = '';
  return (chunk: Buffer | string) => {
    const text = rest + chunk.toString();
    const lines = text.split(/\r?\n/);
    rest = lines.pop() ?? '';
    // A server that never ends a line still shows up, a piece at a time.
    if (rest.length > 4096) {
      lines.push(rest);
      rest = '';
    }
    for (const l of lines) if (l !== '') log(l);
  };
}

async function listAll(client: Client): Promise<Pick<Connected, 'tools' | 'resources'>> {
  const tools: McpTool[] = [];
  const resources: Resource[] = [];
  const caps = client.getServerCapabilities();
  let cursor: string | undefined;
  if (caps?.tools)
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : {});
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
  cursor = undefined;
  if (caps?.resources)
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listResources(cursor ? { cursor } : {});
      resources.push(...r.resources);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
  return { tools, resources };
}

/**
 * Connects one server and lists what it offers, all within `timeoutMs`: past it the connection is
 * closed (a stdio server's process ended) and the promise rejects with McpTimeoutError.
 * Streamable HTTP falls back to SSE, on a fresh client, for a server that only speaks SSE.
 */
export async function connectServer(entry: ServerEntry, o: ConnectOptions): Promise<Connected> {
  const m = await sdk();
  const deadline = Date.now() + o.timeoutMs;
  const attempt = async (kind: McpTransportKind): Promise<Connected> => {
    const c = entry.config;
    let transport: Transport;
    if (c.type === 'stdio') {
      const stdio = new m.StdioClientTransport({
        command: c.command,
        args: c.args,
        // Only the SDK's safe inherited variables plus the server's own: never the session's secrets.
        env: {
          ...inherited(o.env, m.DEFAULT_INHERITED_ENV_VARS),
          ...c.env,
          CLAUDE_PROJECT_DIR: o.projectRoot,
        },
        cwd: o.projectRoot,
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', linesTo(o.log));
      transport = stdio;
    } else {
      const init = { requestInit: { headers: c.headers } };
      transport =
        kind === 'sse'
          ? // eslint-disable-next-line @typescript-eslint/no-deprecated -- a server that only speaks SSE (type "sse", or the fallback) needs it
            new m.SSEClientTransport(new URL(c.url), init)
          : new m.StreamableHTTPClientTransport(new URL(c.url), init);
    }
    let connected = false;
    const client = new m.Client(
      { name: 'carapace', version: '1.0.0' },
      {
        capabilities: {},
        // Used only by servers that announce tools.listChanged; the SDK lists the tools again itself.
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error) o.log(`listing changed tools failed: ${error.message}`);
              else if (tools && connected) o.onToolsChanged?.(tools);
            },
          },
        },
      },
    );
    client.onerror = (error) => o.log(`error: ${error.message}`);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new McpTimeoutError(o.timeoutMs)), Math.max(0, deadline - Date.now()));
    });
    try {
      const listed = await Promise.race([client.connect(transport).then(() => listAll(client)), timedOut]);
      connected = true;
      client.onclose = () => o.onClosed();
      return { client, transport: kind, ...listed };
    } finally {
      clearTimeout(timer);
      if (!connected) o.onClosing(client.close().catch(() => undefined));
    }
  };
  const c = entry.config;
  if (c.type !== 'http') return attempt(c.type);
  try {
    return await attempt('http');
  } catch (error) {
    if (error instanceof McpTimeoutError) throw error;
    o.log(`streamable HTTP failed (${(error as Error).message}); trying SSE`);
    try {
      return await attempt('sse');
    } catch {
      throw error;
    }
  }
}
