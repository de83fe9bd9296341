import { z } from 'zod';

/** Hook output strings (stdout, stderr, context, messages) longer than this are cut, with a note. */
export const HOOK_OUTPUT_LIMIT = 10_000;

/** `total`: the length of the whole output, when only its start was kept. */
export function capOutput(text: string, total = text.length): string {
  if (total <= HOOK_OUTPUT_LIMIT) return text;
  return `${text.slice(0, HOOK_OUTPUT_LIMIT)}\n… [hook output cut: ${total - HOOK_OUTPUT_LIMIT} more characters over the 10,000-character limit]`;
}

/** The JSON a hook may print (or an http hook answer), in Claude Code's format; unknown keys are kept. */
export const HookOutput = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  /** `approve`/`block` are the deprecated PreToolUse spellings of allow/deny. */
  decision: z.enum(['block', 'approve']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
      /** PermissionRequest: the answer to the permission dialog. */
      decision: z
        .looseObject({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: z.record(z.string(), z.unknown()).optional(),
          /** Claude Code's permission updates (`{type: "addRules", rules, behavior, destination}`, …); read in permission-request.ts. */
          updatedPermissions: z.array(z.unknown()).optional(),
          message: z.string().optional(),
          interrupt: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
});
export type HookOutput = z.infer<typeof HookOutput>;

/** What one handler run came to, before the event's rules fold it into a decision. */
export interface HandlerResult {
  /**
   * ok: ran and exited 0 (or 2xx); block: exit 2; error: any other exit, a bad answer or a failure
   * to start (non-blocking); timeout: killed at its timeout (no decision); skipped: not run.
   */
  status: 'ok' | 'block' | 'error' | 'timeout' | 'skipped';
  exitCode: number | null;
  /** Capped at HOOK_OUTPUT_LIMIT. */
  stdout: string;
  stderr: string;
  /** Parsed when stdout (or the http body) starts with `{` and is valid output JSON. */
  json: HookOutput | null;
  /** Why it is an error, in words. */
  problem?: string;
  durationMs: number;
}

/** Reads stdout as output JSON when its first non-space character is `{`. */
export function parseOutputJson(stdout: string): { json: HookOutput | null; problem?: string } {
  if (!stdout.trimStart().startsWith('{')) return { json: null };
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch (error) {
    return { json: null, problem: `its output starts with { but is not JSON (${(error as Error).message})` };
  }
  const parsed = HookOutput.safeParse(data);
  if (!parsed.success)
    return {
      json: null,
      problem: `its JSON output is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(output)'}: ${i.message}`).join('; ')}`,
    };
  return { json: parsed.data };
}
