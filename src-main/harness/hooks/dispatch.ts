import { DEFAULT_TIMEOUT_S, type HookEvent, type HookHandler } from './schema';
import type { ConfiguredHook, HookSource } from './sources';
import { HookSelector, type HookTarget } from './match';
import { capOutput, type HandlerResult } from './output';
import { runCommandHook } from './run-command';
import { runHttpHook } from './run-http';
import { runModelHook, type HookModel } from './run-model';

/** One hook run, for the transcript's quiet note and the logs: what ran, how long, how it ended. */
export interface HookRunRecord {
  event: HookEvent;
  source: HookSource;
  /** The command, the URL, or the prompt: what a person recognises the hook by. */
  label: string;
  handlerType: HookHandler['type'];
  toolName?: string;
  toolUseId?: string;
  durationMs: number;
  /** `async`: started and not waited for. */
  outcome: HandlerResult['status'] | 'async';
  exitCode: number | null;
  /** Its output (capped), and why it failed, if it did. */
  stdout: string;
  stderr: string;
  problem?: string;
}

/** The outcome of all an event's hooks, folded by Claude Code's rules. */
export interface EventOutcome {
  /** A block (exit 2, `decision: "block"`, PreToolUse deny): the reason fed back. */
  blocked: string | null;
  /** `continue: false`: stop everything, with `stopReason` for the person. */
  stop: { reason: string } | null;
  /** PreToolUse: the strongest decision (deny > ask > allow), with its reason and source. */
  permission: { decision: 'allow' | 'deny' | 'ask'; reason: string; source: HookSource; file: string } | null;
  /** PermissionRequest: the hook's answer to the dialog (deny wins over allow), with its source. */
  answer: {
    behavior: 'allow' | 'deny';
    message: string;
    updatedInput: Record<string, unknown> | null;
    /** `updatedPermissions` as written (permission-request.ts keeps only what it may honour). */
    updatedPermissions: unknown[];
    source: HookSource;
    file: string;
  } | null;
  /** PreToolUse: the input that replaces the call's whole input. */
  updatedInput: Record<string, unknown> | null;
  /** What reaches the model as context (additionalContext; plain stdout for UserPromptSubmit/SessionStart). */
  context: string[];
  /** Warnings for the person (`systemMessage`, non-blocking errors). */
  messages: string[];
}

const emptyOutcome = (): EventOutcome => ({
  blocked: null,
  stop: null,
  permission: null,
  answer: null,
  updatedInput: null,
  context: [],
  messages: [],
});

/**
 * Plain stdout reaches the model only for these events, as in Claude Code (PreCompact's becomes
 * instructions for the summary).
 */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set([
  'UserPromptSubmit',
  'SessionStart',
  'PreCompact',
]);
const PERMISSION_RANK = { allow: 1, ask: 2, deny: 3 } as const;

export interface HookRunnerOptions {
  /** The configured hooks, read when an event fires (settings may change during a session). */
  hooks: () => readonly ConfiguredHook[];
  sessionId: string;
  transcriptPath: string;
  projectDir: string;
  cwd: () => string;
  permissionMode: () => string;
  /** The environment hooks run with (already without the app's own secrets). */
  env: NodeJS.ProcessEnv;
  /**
   * Where an http hook's header `$VAR`s are read from (only the names it lists in allowedEnvVars):
   * the person's environment, without the key Carapace itself is billed with. `env` when absent.
   */
  headerEnv?: NodeJS.ProcessEnv;
  home: string;
  /** Told of each run as it ends. */
  onRecord?: (record: HookRunRecord) => void;
  /** Told once of each matcher or `if` that cannot be used. */
  onProblem?: (problem: string) => void;
}

function labelOf(h: HookHandler): string {
  switch (h.type) {
    case 'command':
      return h.command;
    case 'http':
      return h.url;
    default:
      return h.prompt;
  }
}

/**
 * Runs an event's hooks: every matching handler in parallel (an identical handler once), each with
 * its timeout, and folds their answers into one outcome. `async` command hooks are started and not
 * waited for. prompt and agent handlers ask the session's model (run-model.ts).
 */
export class HookRunner {
  private readonly selector: HookSelector;
  private readonly listeners = new Set<(record: HookRunRecord) => void>();
  private queued: string[] = [];
  private model: HookModel | null = null;
  private startPending: Promise<unknown> | null = null;

  /** A SessionStart run under way: the first prompt waits for its context (hooks/wire.ts promptHook). */
  whileStarting(run: Promise<unknown>): void {
    const p = run.finally(() => {
      if (this.startPending === p) this.startPending = null;
    });
    this.startPending = p;
  }

  /** The SessionStart run under way, if any. */
  starting(): Promise<unknown> | null {
    return this.startPending;
  }

  /** The session's model, for prompt and agent hooks (attached by its main agent's runtime). */
  useModel(model: HookModel): void {
    this.model = model;
  }

  /** Context for the model from a hook run outside a turn (SessionStart): sent with the next prompt. */
  queueContext(text: string): void {
    this.queued.push(text);
  }

  /** The queued context, taken (each piece is sent once). */
  takeQueuedContext(): string[] {
    const taken = this.queued;
    this.queued = [];
    return taken;
  }

  /** Tells `listener` of every run from now on (besides `onRecord`); returns an unsubscribe. */
  subscribe(listener: (record: HookRunRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  constructor(private readonly o: HookRunnerOptions) {
    this.selector = new HookSelector({ projectRoot: o.projectDir, home: o.home, cwd: o.projectDir }, (p) =>
      o.onProblem?.(p),
    );
  }

  /** The longest `timeout` (ms) a hook of the event sets itself; 0 when none does. */
  longestOwnTimeoutMs(event: HookEvent): number {
    return Math.max(
      0,
      ...this.o
        .hooks()
        .flatMap((h) => (h.event === event && h.handler.timeout ? [h.handler.timeout * 1000] : [])),
    );
  }

  /** Whether any hook is configured for the event (to skip building its input). */
  has(event: HookEvent): boolean {
    return this.o.hooks().some((h) => h.event === event);
  }

  async run(
    event: HookEvent,
    target: HookTarget,
    fields: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<EventOutcome> {
    const chosen = this.selector.select(this.o.hooks(), event, target);
    const outcome = emptyOutcome();
    if (chosen.length === 0) return outcome;
    const input = {
      session_id: this.o.sessionId,
      transcript_path: this.o.transcriptPath,
      cwd: this.o.cwd(),
      hook_event_name: event,
      permission_mode: this.o.permissionMode(),
      ...fields,
    };
    const results = await Promise.all(chosen.map((h) => this.runOne(h, input, target, signal)));
    for (const [i, h] of chosen.entries()) {
      const r = results[i];
      if (r) this.fold(event, h, r, outcome);
    }
    return outcome;
  }

  private async runOne(
    h: ConfiguredHook,
    input: object,
    target: HookTarget,
    signal: AbortSignal | undefined,
  ): Promise<HandlerResult | null> {
    const handler = h.handler;
    const timeoutMs = (handler.timeout ?? DEFAULT_TIMEOUT_S[handler.type]) * 1000;
    const record = (r: HandlerResult, outcome: HookRunRecord['outcome'] = r.status) => {
      const rec: HookRunRecord = {
        event: h.event,
        source: h.source,
        label: labelOf(handler),
        handlerType: handler.type,
        durationMs: r.durationMs,
        outcome,
        exitCode: r.exitCode,
        stdout: r.stdout,
        stderr: r.stderr,
      };
      if (target.toolName !== undefined) rec.toolName = target.toolName;
      const id = (input as { tool_use_id?: unknown }).tool_use_id;
      if (typeof id === 'string') rec.toolUseId = id;
      if (r.problem !== undefined) rec.problem = r.problem;
      this.o.onRecord?.(rec);
      for (const listener of this.listeners) listener(rec);
    };
    if (handler.type === 'command') {
      const run = runCommandHook(handler, input, {
        cwd: this.o.cwd(),
        env: this.o.env,
        projectDir: this.o.projectDir,
        timeoutMs,
        // An async hook outlives the call that started it.
        signal: handler.async || handler.asyncRewake ? undefined : signal,
      });
      if (handler.async || handler.asyncRewake) {
        void run.then((r) => record(r, 'async'));
        return null;
      }
      const r = await run;
      record(r);
      return r;
    }
    if (handler.type === 'http') {
      const r = await runHttpHook(handler, input, { env: this.o.headerEnv ?? this.o.env, timeoutMs, signal });
      record(r);
      return r;
    }
    const r = await runModelHook(handler, input, { model: this.model, timeoutMs, signal });
    record(r);
    return r;
  }

  private fold(event: HookEvent, h: ConfiguredHook, r: HandlerResult, out: EventOutcome): void {
    const name = `${event} hook (${labelOf(h.handler)})`;
    const block = (reason: string) => {
      const text = capOutput(reason.trim() || `blocked by the ${name}`);
      out.blocked = out.blocked ? `${out.blocked}\n${text}` : text;
    };
    if (r.status === 'skipped' || r.status === 'timeout') {
      if (r.problem) out.messages.push(`${name}: ${r.problem}`);
      return;
    }
    const j = r.json;
    if (r.status === 'block' && event === 'PermissionRequest') {
      out.messages.push(
        `${name}: exit 2 does not answer a permission request; it needs hookSpecificOutput.decision`,
      );
      return;
    }
    if (r.status === 'block') {
      // Exit 2 blocks whatever the JSON says; its reason, if it gives one, is the reason.
      block(j?.reason ?? j?.hookSpecificOutput?.permissionDecisionReason ?? r.stderr);
      if (event === 'PreToolUse') this.permission(out, 'deny', out.blocked ?? '', h);
      return;
    }
    if (r.status === 'error' && !j) {
      out.messages.push(`${name} error: ${r.problem ?? 'failed'}`);
      return;
    }
    if (!j) {
      if (PLAIN_STDOUT_IS_CONTEXT.has(event) && r.stdout.trim() !== '') out.context.push(r.stdout.trim());
      return;
    }
    if (j.continue === false) out.stop = { reason: j.stopReason ?? `stopped by the ${name}` };
    if (j.systemMessage) out.messages.push(capOutput(j.systemMessage));
    const specific = j.hookSpecificOutput;
    if (specific?.additionalContext) out.context.push(capOutput(specific.additionalContext));
    if (event === 'PreToolUse') {
      const decision =
        specific?.permissionDecision ??
        (j.decision === 'approve' ? 'allow' : j.decision === 'block' ? 'deny' : undefined);
      const reason = specific?.permissionDecisionReason ?? j.reason ?? '';
      if (decision === 'deny') block(reason);
      if (decision && decision !== 'defer') this.permission(out, decision, reason, h);
      if (specific?.updatedInput && decision !== 'deny') out.updatedInput = specific.updatedInput;
      return;
    }
    if (event === 'PermissionRequest') {
      // Exit 2 is not honoured here (Claude Code): only the decision object answers the dialog.
      const d = specific?.decision;
      if (d && (out.answer === null || (out.answer.behavior === 'allow' && d.behavior === 'deny')))
        out.answer = {
          behavior: d.behavior,
          message: d.message ?? '',
          updatedInput: d.updatedInput ?? null,
          updatedPermissions: d.updatedPermissions ?? [],
          source: h.source,
          file: h.file,
        };
      return;
    }
    if (j.decision === 'block') block(j.reason ?? '');
  }

  private permission(
    out: EventOutcome,
    decision: 'allow' | 'deny' | 'ask',
    reason: string,
    h: ConfiguredHook,
  ): void {
    if (out.permission && PERMISSION_RANK[out.permission.decision] >= PERMISSION_RANK[decision]) return;
    out.permission = { decision, reason, source: h.source, file: h.file };
  }
}
