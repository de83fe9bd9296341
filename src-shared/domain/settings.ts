import { z } from 'zod';

export const ThemePreference = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof ThemePreference>;

/**
 * The user's settings file (`~/.carapace/settings.json`). Unknown keys are kept (`loose`):
 * the same file carries Claude Code-style blocks (permissions, hooks, sandbox) that other parts read,
 * and a round trip through the UI must not drop them.
 */
export const UserSettings = z.looseObject({
  model: z.string().min(1).optional(),
  fallbackModel: z.string().min(1).optional(),
  anthropicBaseUrl: z.url().optional(),
  theme: ThemePreference.optional(),
  /** Draw terminals with WebGL where the GPU allows (off: the DOM renderer, slower but everywhere). */
  terminalGpu: z.boolean().optional(),
});
export type UserSettings = z.infer<typeof UserSettings>;

export const SettingsPatch = z.strictObject({
  model: z.string().min(1).nullable().optional(),
  anthropicBaseUrl: z.url().nullable().optional(),
  theme: ThemePreference.optional(),
  terminalGpu: z.boolean().optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const ApiKeySource = z.enum(['env', 'stored', 'none']);

/** What the renderer may know of the settings: never the key itself. */
export const SettingsView = z.object({
  model: z.string().nullable(),
  anthropicBaseUrl: z.string().nullable(),
  baseUrlSource: z.enum(['env', 'settings', 'none']),
  theme: ThemePreference,
  terminalGpu: z.boolean(),
  apiKeySource: ApiKeySource,
  /** Where a key typed into the UI is kept: encrypted by the OS, or only for this run. */
  keyStorage: z.enum(['safeStorage', 'memory']),
  /** Set when settings.json could not be used; the file is left untouched. */
  problem: z.string().nullable(),
});
export type SettingsView = z.infer<typeof SettingsView>;
