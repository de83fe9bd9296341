import { z } from 'zod';

/**
 * The `hooks` block of a settings file, in Claude Code's format:
 * `{ [Event]: [{ matcher?, hooks: [handler, …] }] }`. Plain zod objects without `.transform()`, so a
 * parsed block serialises back to the JSON it came from (settings round-trip through JSON).
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'Notification',
  'PermissionRequest',
] as const;
export const HookEvent = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof HookEvent>;

/** Events whose matcher is tested against a tool name (and where `if` applies). */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
]);

const common = {
  /** Seconds; the type's default when absent. */
  timeout: z.number().positive().optional(),
  /** One permission rule (`Bash(git *)`): the hook runs only for calls it matches. Tool events only. */
  if: z.string().min(1).optional(),
  statusMessage: z.string().optional(),
};

export const CommandHook = z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  /** `sh` by default; `bash` runs it with bash. */
  shell: z.enum(['sh', 'bash', 'powershell']).optional(),
  /** Started and not waited for: it decides nothing. */
  async: z.boolean().optional(),
  /** An async hook whose exit 2 should wake the model: accepted; it runs as `async` for now. */
  asyncRewake: z.boolean().optional(),
  ...common,
});
export const HttpHook = z.object({
  type: z.literal('http'),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  /** The only variables `$VAR` / `${VAR}` in headers are filled from; any other becomes empty. */
  allowedEnvVars: z.array(z.string()).optional(),
  ...common,
});
export const PromptHook = z.object({
  type: z.literal('prompt'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  ...common,
});
export const AgentHook = z.object({
  type: z.literal('agent'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  ...common,
});
export const HookHandler = z.discriminatedUnion('type', [CommandHook, HttpHook, PromptHook, AgentHook]);
export type HookHandler = z.infer<typeof HookHandler>;
export type CommandHook = z.infer<typeof CommandHook>;
export type HttpHook = z.infer<typeof HttpHook>;
export type PromptHook = z.infer<typeof PromptHook>;
export type AgentHook = z.infer<typeof AgentHook>;

export const HookMatcherGroup = z.object({
  matcher: z.string().optional(),
  hooks: z.array(HookHandler),
});
export type HookMatcherGroup = z.infer<typeof HookMatcherGroup>;

/** The whole block, strictly: every event known, every handler valid. */
export const HooksBlock = z.partialRecord(HookEvent, z.array(HookMatcherGroup));
export type HooksBlock = z.infer<typeof HooksBlock>;

/** Default timeouts in seconds, by handler type. */
export const DEFAULT_TIMEOUT_S: Record<HookHandler['type'], number> = {
  command: 600,
  http: 600,
  prompt: 30,
  agent: 60,
};

/** One problem in a hooks block, with where it is (`hooks.PreToolUse[0].hooks[1].command`). */
export class HookConfigError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'HookConfigError';
  }
}

/** One usable hook: its event, matcher and handler. */
export interface HookEntry {
  event: HookEvent;
  matcher: string;
  handler: HookHandler;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function issuePath(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : `${p}.${String(k)}`), base);
}

/**
 * Reads a hooks block entry by entry: an unknown event, a group or a handler that is not valid is
 * reported (with its path) and left out; everything else is used. The one reader of a `hooks` block:
 * what runs (sources.ts, the app's trusted project hooks, plugins) and what Settings lists are both
 * read here, so a hook shown as valid is a hook that runs.
 *
 * `keep` picks handlers by event, matcher (`''` when absent) and the handler as written (the
 * workspace trust's key), before they are validated; the others are neither used nor reported.
 */
export function parseHooksBlock(
  value: unknown,
  keep?: (event: HookEvent, matcher: string, handler: unknown) => boolean,
): { entries: HookEntry[]; errors: HookConfigError[] } {
  const entries: HookEntry[] = [];
  const errors: HookConfigError[] = [];
  if (value === undefined) return { entries, errors };
  if (!isObject(value)) {
    errors.push(new HookConfigError('hooks', 'should be an object of events'));
    return { entries, errors };
  }
  for (const [event, groups] of Object.entries(value)) {
    const at = `hooks.${event}`;
    const known = HookEvent.safeParse(event);
    if (!known.success) {
      errors.push(new HookConfigError(at, `unknown event; known: ${HOOK_EVENTS.join(', ')}`));
      continue;
    }
    if (!Array.isArray(groups)) {
      errors.push(new HookConfigError(at, 'should be a list of {matcher, hooks}'));
      continue;
    }
    groups.forEach((group: unknown, g) => {
      const gAt = `${at}[${g}]`;
      if (!isObject(group) || !Array.isArray(group['hooks'])) {
        errors.push(new HookConfigError(gAt, 'should be an object with a "hooks" list'));
        return;
      }
      const matcher = group['matcher'];
      if (matcher !== undefined && typeof matcher !== 'string') {
        errors.push(new HookConfigError(`${gAt}.matcher`, 'should be a string'));
        return;
      }
      group['hooks'].forEach((h: unknown, i) => {
        if (keep && !keep(known.data, matcher ?? '', h)) return;
        const parsed = HookHandler.safeParse(h);
        if (parsed.success) entries.push({ event: known.data, matcher: matcher ?? '', handler: parsed.data });
        else
          for (const issue of parsed.error.issues)
            errors.push(new HookConfigError(issuePath(`${gAt}.hooks[${i}]`, issue.path), issue.message));
      });
    });
  }
  return { entries, errors };
}
