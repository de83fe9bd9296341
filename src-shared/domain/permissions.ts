import { z } from 'zod';

/** Claude Code's permission modes. `dontAsk` turns every "ask" into a denial (print mode). */
export const PermissionMode = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk']);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** A tool call refused because nobody could (or may) approve it. */
export const PermissionDenial = z.object({
  tool_name: z.string(),
  tool_use_id: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});
export type PermissionDenial = z.infer<typeof PermissionDenial>;
