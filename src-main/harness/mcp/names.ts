/**
 * Tool names the model sees: `mcp__<server>__<tool>`, with every character outside `[A-Za-z0-9_-]`
 * replaced by `_` (Claude Code's normalisation).
 *
 * A server's part is also cut down to single underscores and trimmed of them at its ends, going further
 * than Claude Code: permission rules match `mcp__<server>` by the prefix `mcp__<server>__`, so a
 * project server named `github__x` or `github_` would otherwise have tools (`mcp__github__x__…`,
 * `mcp__github___…`) that a person's `mcp__github` allow rule covers.
 */
export function normalizeServerName(name: string): string {
  return name
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function normalizeToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The API's limit on a tool's name. */
export const MAX_TOOL_NAME = 64;

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${normalizeToolName(tool)}`;
}
