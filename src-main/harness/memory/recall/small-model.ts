/**
 * The small, fast model for side calls (the recall selector). Carapace has no setting for it yet; it
 * honours the same environment variables as Claude Code, so a gateway that renames models still works.
 */
export const DEFAULT_SMALL_MODEL = 'claude-haiku-4-5';

export function smallModelFrom(env: NodeJS.ProcessEnv): string {
  for (const key of ['ANTHROPIC_SMALL_FAST_MODEL', 'ANTHROPIC_DEFAULT_HAIKU_MODEL']) {
    const value = env[key]?.trim();
    if (value) return value;
  }
  return DEFAULT_SMALL_MODEL;
}
