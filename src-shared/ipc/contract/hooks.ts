import { z } from 'zod';
import { channel, ProjectRef } from './common';

/** Where a hook is configured, highest precedence first (as the harness reads them). */
export const HookSourceName = z.enum(['policy', 'local', 'project', 'user', 'plugin']);
export type HookSourceName = z.infer<typeof HookSourceName>;

/** One configured hook as Settings lists it: what it is, where it is written, and whether it runs. */
export const HookListEntry = z.object({
  source: HookSourceName,
  /** For source `plugin`: the plugin's name; null otherwise. */
  plugin: z.string().nullable(),
  /** The settings file (a plugin's hooks file) it is written in (absolute). */
  file: z.string(),
  event: z.string(),
  /** '' when it matches everything. */
  matcher: z.string(),
  /** Its `if` rule (`Bash(git *)`), or null. */
  if: z.string().nullable(),
  type: z.enum(['command', 'http', 'prompt', 'agent']),
  /** The command, the URL, or the prompt. */
  target: z.string(),
  /** Seconds, and whether that is the type's default (no `timeout` written). */
  timeoutS: z.number(),
  timeoutDefault: z.boolean(),
  async: z.boolean(),
  /** Whether an app session runs it now; when not, why (in words). */
  runs: z.boolean(),
  whyNot: z.string().nullable(),
});
export type HookListEntry = z.infer<typeof HookListEntry>;

export const HooksView = z.object({
  projectId: z.string(),
  projectRoot: z.string(),
  /** The four settings files, present or not, so Settings can say where to add one (no plugin's). */
  files: z.array(z.object({ source: HookSourceName, path: z.string(), exists: z.boolean() })),
  hooks: z.array(HookListEntry),
  /** Entries and files that cannot be used, with the file they are in. */
  problems: z.array(z.object({ file: z.string(), message: z.string() })),
  /** `disableAllHooks` / `allowManagedHooksOnly` and the file that set it, or null. */
  narrowedBy: z.string().nullable(),
});
export type HooksView = z.infer<typeof HooksView>;

export const requests = {
  /** Every hook of the open project's settings sources, by source and event, with whether it runs. */
  'hooks.list': channel(ProjectRef, HooksView),
} as const;

export const events = {} as const;
