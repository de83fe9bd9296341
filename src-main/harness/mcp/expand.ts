/**
 * `${VAR}` and `${VAR:-default}` in an MCP server's command, args, env, URL and headers, as Claude
 * Code expands them. A variable that is unset (and has no default) stays as written, and is reported,
 * so a missing secret shows up as a clear warning instead of an empty header.
 */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** The variables that were unset and had no default. */
  missing: string[];
  /** The variables `withhold` kept back: left as written, default and all. */
  withheld: string[];
}

/**
 * Carapace's own model credentials: a repository's `.mcp.json` never needs them, and a `${VAR}` of
 * one would hand the person's key to the server (or, in a URL or header, to any address).
 */
export const isModelCredential = (name: string): boolean =>
  /^ANTHROPIC_\w*(KEY|TOKEN)$/.test(name) || name === 'CLAUDE_CODE_OAUTH_TOKEN';

export function expandVars(
  text: string,
  env: NodeJS.ProcessEnv,
  withhold: (name: string) => boolean = () => false,
): Expansion {
  const missing: string[] = [];
  const withheld: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    if (withhold(name)) {
      withheld.push(name);
      return whole;
    }
    const set = env[name];
    // `:-` takes the default for an empty value too, as the shell's does.
    if (set !== undefined && set !== '') return set;
    if (fallback !== undefined) return fallback;
    if (set !== undefined) return set;
    missing.push(name);
    return whole;
  });
  return { value, missing, withheld };
}
