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
