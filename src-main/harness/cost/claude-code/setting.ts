import { z } from 'zod';

/**
 * `usage.includeClaudeCode` in the user's settings (`~/.carapace/settings.json`): whether the cost
 * dashboard also reads Claude Code's transcripts. Unset, it is on exactly when Claude Code's
 * projects folder exists, so a person who uses both sees all their spend without a step.
 * The settings file keeps unknown keys, so the key is read here rather than added to its schema.
 */
const UsageSettings = z.object({ includeClaudeCode: z.boolean().optional() });

export function claudeCodeEnabled(settings: unknown, dirs: readonly string[]): boolean {
  if (dirs.length === 0) return false;
  const usage =
    typeof settings === 'object' && settings !== null ? (settings as { usage?: unknown }).usage : undefined;
  const parsed = UsageSettings.safeParse(usage);
  return (parsed.success ? parsed.data.includeClaudeCode : undefined) ?? true;
}
