import { z } from 'zod';
import { DiffDisplay } from './messages';

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

export const DecidedBy = z.enum([
  'rule',
  'mode',
  'analysis',
  'sandbox',
  'default',
  'hook',
  'classifier',
  'user',
  'leader',
]);
export type DecidedBy = z.infer<typeof DecidedBy>;

/**
 * What an Edit or Write would do to its file, computed by the main process when it asks: the diff
 * against the file as it is (a new file: its whole content), cut to a bounded size.
 */
export const PermissionPreview = DiffDisplay.extend({
  /** Lines or characters were left out to keep the preview small; the lines say where. */
  truncated: z.boolean(),
  /** Something the person should know: the call will fail as written, or the file is not shown. */
  note: z.string().optional(),
});
export type PermissionPreview = z.infer<typeof PermissionPreview>;

/** A pending question for a person: may this tool call run? */
export const PermissionRequestView = z.object({
  id: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  toolUseId: z.string(),
  /** The command or the path, in one line. */
  summary: z.string(),
  /** Why it needs approval, in words ("`find -exec` runs a command"). */
  reason: z.string(),
  /** Rules "Always allow" would write (editable before saving). */
  suggestions: z.array(z.string()),
  input: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** For Edit and Write: the change, so nobody approves it blind. */
  preview: PermissionPreview.optional(),
  /** Asked by a sub-agent or a worker, not the session's main agent: who, so the person knows. */
  agent: z.object({ id: z.string(), name: z.string(), agentType: z.string() }).optional(),
});
export type PermissionRequestView = z.infer<typeof PermissionRequestView>;

export const PermissionResponse = z.strictObject({
  requestId: z.string().min(1).max(100),
  decision: z.enum(['allow_once', 'allow_always', 'deny']),
  /** For allow_always, required: the rules to write, one a line, exactly as the person saw them. */
  rule: z.string().min(1).max(2000).optional(),
  /** For deny: what the model is told. */
  feedback: z.string().max(10_000).optional(),
});
export type PermissionResponse = z.infer<typeof PermissionResponse>;

/** One decision in a session's permission log. */
export const PermissionLogEntry = z.object({
  id: z.string(),
  at: z.string(),
  toolName: z.string(),
  toolUseId: z.string(),
  summary: z.string(),
  input: z.record(z.string(), z.unknown()),
  behavior: z.enum(['allow', 'deny']),
  decidedBy: DecidedBy,
  reason: z.string(),
  rule: z.object({ text: z.string(), source: z.string() }).optional(),
  addedRule: z.string().optional(),
  /** For a call that asked: the rules "Always allow" offered, which "Make rule…" offers again. */
  suggestions: z.array(z.string()).optional(),
});
export type PermissionLogEntry = z.infer<typeof PermissionLogEntry>;

export const RuleView = z.object({
  source: z.string(),
  behavior: z.enum(['allow', 'deny', 'ask']),
  text: z.string(),
});
export type RuleView = z.infer<typeof RuleView>;

/** The OS sandbox for a project: switched on in its settings, and able to start on this machine. */
export const SandboxView = z.object({
  enabled: z.boolean(),
  available: z.boolean(),
  autoAllowBashIfSandboxed: z.boolean(),
  /** Why it cannot start, when it cannot. */
  reason: z.string().nullable(),
  allowedDomains: z.array(z.string()),
});
export type SandboxView = z.infer<typeof SandboxView>;

export const RulesView = z.object({
  files: z.array(z.object({ source: z.string(), path: z.string(), exists: z.boolean() })),
  rules: z.array(RuleView),
  problems: z.array(z.string()),
  sandbox: SandboxView,
});
export type RulesView = z.infer<typeof RulesView>;
