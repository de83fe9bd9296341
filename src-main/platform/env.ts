import path from 'node:path';

/** Names that look like credentials; such variables never reach a command the model runs. */
const SECRET_NAME = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|SESSION_KEY)/i;

/**
 * The environment for commands the model runs: the user's, minus anything that looks like a
 * credential and every ANTHROPIC_ variable (the model must not read the key it is billed with).
 */
export function sanitizeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (name.startsWith('ANTHROPIC_') || SECRET_NAME.test(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * A PATH value with only its absolute folders. Programs Carapace starts on the person's behalf (their
 * hooks, their MCP servers, git) run in the project folder, where an empty or relative entry (`.`, a
 * trailing `:`) would find a `git`, `npx` or `prettier` the repository ships and run it as theirs.
 */
export function absolutePathEntries(value: string): string {
  return value
    .split(path.delimiter)
    .filter((dir) => path.isAbsolute(dir))
    .join(path.delimiter);
}
