import { z } from 'zod';

/**
 * MCP servers as the window sees them: each project's servers with their state, tools and where
 * they are configured, and what the person may send to add one. The main process parses every such
 * input again; these schemas are the only description of a server the renderer gets or gives.
 */

/** Where a server's configuration came from (Claude Code's scope names). */
export const McpScope = z.enum(['project', 'user', 'local', 'cli', 'plugin']);
export type McpScope = z.infer<typeof McpScope>;
export const McpTransportKind = z.enum(['stdio', 'http', 'sse']);
export type McpTransportKind = z.infer<typeof McpTransportKind>;
export const McpServerState = z.enum(['connecting', 'connected', 'failed', 'disabled', 'needs-approval']);
export type McpServerState = z.infer<typeof McpServerState>;

export const McpToolView = z.object({
  name: z.string(),
  /** `mcp__<server>__<tool>`, the name the model calls and permission rules match. */
  fullName: z.string(),
  description: z.string(),
});
export type McpToolView = z.infer<typeof McpToolView>;

export const McpServerView = z.object({
  name: z.string(),
  scope: McpScope,
  transport: McpTransportKind,
  state: McpServerState,
  /** Why it failed (or why it does not run), in words. */
  error: z.string().nullable(),
  tools: z.array(McpToolView),
  resources: z.number().int().nonnegative(),
  /** The file its configuration is in, as a path; null when it came from elsewhere. */
  configFile: z.string().nullable(),
});
export type McpServerView = z.infer<typeof McpServerView>;

export const McpProjectView = z.object({
  projectId: z.string(),
  servers: z.array(McpServerView),
  /** Configuration problems (a broken `.mcp.json`, a bad entry), each in words. */
  problems: z.array(z.string()),
});
export type McpProjectView = z.infer<typeof McpProjectView>;

/**
 * A server name as the config files key it: `mcp__<name>__<tool>` must stay one unambiguous tool
 * name, so only letters, digits, `_` and `-`, and no `__` (which would split the name wrongly).
 */
export const McpServerName = z
  .string()
  .min(1, 'A name is needed')
  .max(64, 'At most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Only letters, digits, _ and -')
  .refine((n) => !n.includes('__'), 'No double underscore (it separates server and tool names)');

const Arg = z.string().max(4096);

/** "Add a server": a command to run (stdio) or an http(s) address (Streamable HTTP or SSE). */
export const McpServerConfigInput = z.discriminatedUnion('transport', [
  z.strictObject({
    transport: z.literal('stdio'),
    command: z
      .string()
      .trim()
      .min(1, 'A command is needed')
      .max(4096)
      .refine((c) => !c.includes('\0')),
    args: z.array(Arg).max(200).default([]),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Not a variable name'), Arg).optional(),
  }),
  z.strictObject({
    transport: z.enum(['http', 'sse']),
    url: z.url({ protocol: /^https?$/, error: 'An http:// or https:// address' }).max(4096),
  }),
]);
export type McpServerConfigInput = z.infer<typeof McpServerConfigInput>;

/** Where an added server is written: the user's own config (every project) or the project's `.mcp.json`. */
export const McpAddScope = z.enum(['user', 'project']);
export type McpAddScope = z.infer<typeof McpAddScope>;
