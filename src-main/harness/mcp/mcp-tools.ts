import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { buildTool, type AnyTool } from '../tools/tool';
import { toToolOutput, type McpCallResult } from './result';

/** Claude Code cuts an MCP tool's description here: a server must not fill the prompt. */
export const MAX_DESCRIPTION_CHARS = 2048;
/** MCP_TOOL_TIMEOUT's default, as Claude Code's: a tool call may take as long as it takes. */
const DEFAULT_TOOL_TIMEOUT_MS = 100_000_000;

/**
 * Any JSON object, validated by the server (the executor's parse only checks it is an object); the
 * model is shown the server's own JSON Schema through zod's `toJSONSchema` override, a fresh copy
 * each time so the request builder's edits never reach it.
 */
export function jsonSchemaInput(schema: unknown): z.ZodType<Record<string, unknown>> {
  const input = z.record(z.string(), z.unknown());
  const shown =
    typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object'
      ? (schema as Record<string, unknown>)
      : { type: 'object', properties: {} };
  const text = JSON.stringify(shown);
  input._zod.toJSONSchema = () => JSON.parse(text) as unknown;
  return input;
}

export function toolTimeoutMs(env: NodeJS.ProcessEnv): number {
  const set = Number(env['MCP_TOOL_TIMEOUT']);
  return Number.isInteger(set) && set > 0 ? set : DEFAULT_TOOL_TIMEOUT_MS;
}

export interface McpToolSetup {
  fullName: string;
  serverName: string;
  tool: McpTool;
  client: Client;
  outputLimit: number;
  timeoutMs: number;
}

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… [description cut]` : text;

/** One server tool as a Carapace tool: the permission system decides on it by its full name. */
export function mcpTool(s: McpToolSetup): AnyTool {
  const readOnlyHint = s.tool.annotations?.readOnlyHint === true;
  return buildTool({
    name: s.fullName,
    description: cut(s.tool.description ?? s.tool.title ?? s.tool.name, MAX_DESCRIPTION_CHARS),
    inputSchema: jsonSchemaInput(s.tool.inputSchema),
    // The server's hint may run it beside other read-only calls; it is never taken as leave to skip
    // permission (a server says what it likes about itself), so isReadOnly stays false.
    isConcurrencySafe: () => readOnlyHint,
    maxResultChars: Infinity,
    // eslint-disable-next-line require-yield -- an MCP call reports no progress lines
    async *call(input, ctx) {
      const result = await s.client.callTool({ name: s.tool.name, arguments: input }, undefined, {
        signal: ctx.abortSignal,
        timeout: s.timeoutMs,
        resetTimeoutOnProgress: true,
      });
      return toToolOutput(result as McpCallResult, s.outputLimit);
    },
  });
}

/** What the resource tools need of the manager: the connected servers that offer resources. */
export interface ResourceServers {
  /** Connected servers with resources, by the name the model uses. */
  withResources(): { name: string; client: Client }[];
  outputLimit: number;
}

const ListInput = z.strictObject({
  server: z.string().optional().describe("Only this server's resources; every server's without it"),
});
const ReadInput = z.strictObject({
  server: z.string().describe('The MCP server the resource belongs to'),
  uri: z.string().describe('The URI of the resource to read'),
});

/** ListMcpResourcesTool and ReadMcpResourceTool, as Claude Code names them. */
export function resourceTools(r: ResourceServers): AnyTool[] {
  const find = (name: string) => {
    const found = r.withResources().find((s) => s.name === name);
    if (!found)
      throw new Error(
        `No connected MCP server "${name}" offers resources. Servers with resources: ${
          r
            .withResources()
            .map((s) => s.name)
            .join(', ') || 'none'
        }.`,
      );
    return found;
  };
  const list = buildTool({
    name: 'ListMcpResourcesTool',
    description:
      "Lists the resources the connected MCP servers offer (each with its server and URI). Give `server` for one server's only.",
    inputSchema: ListInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    maxResultChars: Infinity,
    // eslint-disable-next-line require-yield -- no progress to report
    async *call(input, ctx) {
      const servers = input.server === undefined ? r.withResources() : [find(input.server)];
      const all: Record<string, unknown>[] = [];
      for (const s of servers) {
        const listed = await s.client.listResources({}, { signal: ctx.abortSignal });
        for (const res of listed.resources) all.push({ ...res, server: s.name });
      }
      const text = all.length === 0 ? 'No resources found.' : JSON.stringify(all, null, 2);
      return toToolOutput({ content: [{ type: 'text', text }] }, r.outputLimit);
    },
  });
  const read = buildTool({
    name: 'ReadMcpResourceTool',
    description: 'Reads one resource from a connected MCP server by its URI (see ListMcpResourcesTool).',
    inputSchema: ReadInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    maxResultChars: Infinity,
    // eslint-disable-next-line require-yield -- no progress to report
    async *call(input, ctx) {
      const s = find(input.server);
      const got = await s.client.readResource({ uri: input.uri }, { signal: ctx.abortSignal });
      return toToolOutput(
        {
          content: got.contents.map((c) => ({
            type: 'resource',
            resource: c as { uri: string; text?: string; blob?: string; mimeType?: string },
          })),
        },
        r.outputLimit,
      );
    },
  });
  return [list, read];
}
