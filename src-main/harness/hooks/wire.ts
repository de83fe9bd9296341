import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { MessageItem } from '@shared/domain/messages';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import { summarize } from '../permissions/engine-gate';
import type { PermissionGate } from '../permissions/gate';
import { stopHookNudge } from '../loop/nudges';
import type { AnyTool, ToolOutput } from '../tools/tool';
import type { CompactHooks } from '../loop/autocompact';
import type { HookRunner } from './dispatch';
import { hookWho, type HookVerdicts } from './permission-verdicts';

/**
 * Where hooks meet a runtime: PreToolUse in front of the permission gate, PostToolUse and
 * PostToolUseFailure around each tool's call, UserPromptSubmit before a prompt is sent, Stop
 * through the query loop's stop seam.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Who is calling, when it is a sub-agent (the fields Claude Code adds to a sub-agent's hook input). */
export interface AgentHookFields {
  agent_id: string;
  agent_type: string;
}

/** Context a hook adds, as the model reads it (Claude Code wraps it as a system reminder). */
export function hookContext(event: string, parts: readonly string[]): string {
  return `<system-reminder>\n${event} hook additional context:\n${parts.join('\n')}\n</system-reminder>`;
}

/**
 * additionalContext a PreToolUse hook gave for a call, kept until the call's result is made: it
 * reaches the model next to the tool_result, as in Claude Code.
 */
export class PendingToolContext {
  private readonly byCall = new Map<string, string[]>();
  set(toolUseId: string, parts: string[]): void {
    if (parts.length > 0) this.byCall.set(toolUseId, parts);
  }
  take(toolUseId: string): string[] {
    const parts = this.byCall.get(toolUseId) ?? [];
    this.byCall.delete(toolUseId);
    return parts;
  }
}

/**
 * PreToolUse: the hooks run before the permission rules. A block (exit 2) or a `deny` refuses the
 * call (its reason goes back to the model in the tool_result, and to the permission log with the
 * hook's source); otherwise the call goes to the gate with the hook's `updatedInput`, if any, which
 * the rules then judge like any input.
 */
export function withPreToolUseHooks(
  inner: PermissionGate,
  runner: HookRunner,
  onDecision?: (entry: PermissionLogEntry) => void,
  pending?: PendingToolContext,
  verdicts?: HookVerdicts,
  /** Inside a sub-agent: `agent_id` and `agent_type`, added to every event's input as Claude Code does. */
  agent?: AgentHookFields,
): PermissionGate {
  return {
    filterTools: (tools) => inner.filterTools(tools),
    async check(tool, input, ctx) {
      if (!runner.has('PreToolUse')) return inner.check(tool, input, ctx);
      const args = isObject(input) ? input : {};
      const out = await runner.run(
        'PreToolUse',
        { toolName: tool.name, toolInput: args },
        { tool_name: tool.name, tool_input: args, tool_use_id: ctx.toolUseId, ...agent },
        ctx.abortSignal,
      );
      // `continue: false` stops everything: the call does not run either.
      if (out.permission?.decision === 'deny' || out.blocked !== null || out.stop !== null) {
        const reason = out.blocked ?? out.stop?.reason ?? out.permission?.reason ?? '';
        const who = out.permission ? hookWho('PreToolUse', out.permission.source, out.permission.file) : null;
        onDecision?.({
          id: randomUUID(),
          at: new Date().toISOString(),
          toolName: tool.name,
          toolUseId: ctx.toolUseId,
          summary: summarize(tool, args),
          input: args,
          behavior: 'deny',
          decidedBy: 'hook',
          reason: `refused by ${who ?? 'a PreToolUse hook'}${reason ? `: ${reason}` : ''}`,
        });
        return {
          behavior: 'deny',
          message: `A PreToolUse hook blocked this ${tool.name} call${reason ? `: ${reason}` : '.'}`,
        };
      }
      const updated = out.updatedInput;
      // The replacement must fit the tool's input, as the model's must, before anything judges it.
      const fits = updated ? (tool.inputSchema as z.ZodType).safeParse(updated) : null;
      if (fits && !fits.success)
        return {
          behavior: 'deny',
          message: `InputValidationError: ${tool.name}: the input a PreToolUse hook gave is not valid: ${fits.error.issues.map((i) => `${i.path.map(String).join('.') || '(input)'}: ${i.message}`).join('; ')}`,
        };
      // An allow or ask goes to the rules' decision, which it may revise but never past a deny or the
      // project's containment (permission-verdicts.ts); the gate logs it with the hook's source.
      const p = out.permission;
      if (verdicts && p && p.decision !== 'deny')
        verdicts.set(ctx.toolUseId, {
          decision: p.decision,
          reason: p.reason,
          source: p.source,
          file: p.file,
        });
      let decision: Awaited<ReturnType<PermissionGate['check']>>;
      try {
        decision = await inner.check(tool, updated ?? input, ctx);
      } finally {
        verdicts?.delete(ctx.toolUseId);
      }
      if (decision.behavior === 'allow') pending?.set(ctx.toolUseId, out.context);
      // A PermissionRequest hook's own updatedInput (judged again by the gate) is the newer one.
      return updated && decision.behavior === 'allow' && !decision.updatedInput
        ? { ...decision, updatedInput: updated }
        : decision;
    },
  };
}

function appendText(output: ToolOutput, text: string): ToolOutput {
  const content =
    typeof output.content === 'string'
      ? `${output.content}\n\n${text}`
      : [...output.content, { type: 'text' as const, text }];
  return { ...output, content };
}

function textOf(content: ToolOutput['content']): string {
  return typeof content === 'string'
    ? content
    : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/**
 * PostToolUse after a call that succeeded, PostToolUseFailure after one that failed. What the hooks
 * say back (a block's reason, additionalContext) is added to the tool_result the model reads; the
 * tool has run either way.
 */
export function withPostToolUseHooks(
  tools: readonly AnyTool[],
  runner: HookRunner,
  pending?: PendingToolContext,
  agent?: AgentHookFields,
): AnyTool[] {
  // The tool's own properties are copied as they are, getters included: a spread would read them
  // now (the Agent tool's description loads the agent files) and freeze what they say.
  return tools.map((tool) => {
    const call: AnyTool['call'] = async function* (input, ctx) {
      const started = performance.now();
      const called = yield* tool.call(input, ctx);
      const before = pending?.take(ctx.toolUseId) ?? [];
      const output = before.length > 0 ? appendText(called, hookContext('PreToolUse', before)) : called;
      const event = output.isError ? 'PostToolUseFailure' : 'PostToolUse';
      if (!runner.has(event)) return output;
      const args = isObject(input) ? input : {};
      const out = await runner.run(
        event,
        { toolName: tool.name, toolInput: args },
        {
          tool_name: tool.name,
          tool_input: args,
          tool_use_id: ctx.toolUseId,
          duration_ms: Math.round(performance.now() - started),
          ...(output.isError ? { error: textOf(output.content) } : { tool_response: output.content }),
          ...agent,
        },
        ctx.abortSignal,
      );
      let result = output;
      if (out.blocked !== null) result = appendText(result, `${event} hook feedback: ${out.blocked}`);
      if (out.context.length > 0) result = appendText(result, hookContext(event, out.context));
      return result;
    };
    return Object.defineProperties(
      {},
      {
        ...Object.getOwnPropertyDescriptors(tool),
        call: { value: call, enumerable: true, writable: true, configurable: true },
      },
    ) as AnyTool;
  });
}

/** The text of the last assistant message. */
function lastAssistantText(messages: readonly MessageItem[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'assistant') return m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  }
  return '';
}

/** Whether the turn is already going on because a Stop hook blocked its end. */
function stopHookActive(messages: readonly MessageItem[]): boolean {
  const prefix = stopHookNudge('').split(':')[0] ?? '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user' || m.origin === 'tool_results') continue;
    return m.origin === 'nudge' && m.content.some((b) => b.type === 'text' && b.text.startsWith(prefix));
  }
  return false;
}

/**
 * Stop: a block (exit 2, `decision: "block"`) keeps the turn going with its reason (the query loop
 * caps these at 8 in a row).
 */
export function stopHook(runner: HookRunner): (messages: readonly MessageItem[]) => Promise<string | null> {
  return endHook(runner, 'Stop', {}, {});
}

/** Who a sub-agent is, for its SubagentStart and SubagentStop hooks. */
export interface SubagentHookInfo {
  agentId: string;
  agentType: string;
  /** Its own transcript. */
  transcriptPath: string;
}

/**
 * SubagentStop (matched on the agent type): the Stop fields plus the agent's id, type and transcript;
 * a block keeps the sub-agent going with its reason, as Stop does for the main agent.
 */
export function subagentStopHook(
  runner: HookRunner,
  agent: SubagentHookInfo,
): (messages: readonly MessageItem[]) => Promise<string | null> {
  return endHook(
    runner,
    'SubagentStop',
    { matchValue: agent.agentType },
    { agent_id: agent.agentId, agent_type: agent.agentType, agent_transcript_path: agent.transcriptPath },
  );
}

function endHook(
  runner: HookRunner,
  event: 'Stop' | 'SubagentStop',
  target: { matchValue?: string },
  fields: Record<string, unknown>,
): (messages: readonly MessageItem[]) => Promise<string | null> {
  return async (messages) => {
    if (!runner.has(event)) return null;
    const out = await runner.run(event, target, {
      stop_hook_active: stopHookActive(messages),
      last_assistant_message: lastAssistantText(messages),
      ...fields,
    });
    // `continue: false` wins over a block: the turn ends.
    return out.stop ? null : out.blocked;
  };
}

/**
 * SubagentStart (matched on the agent type), before the sub-agent's first request: its context
 * (additionalContext) is given to the sub-agent with its prompt. It cannot block.
 */
export async function subagentStartHook(
  runner: HookRunner,
  agent: Omit<SubagentHookInfo, 'transcriptPath'>,
  signal?: AbortSignal,
): Promise<string | null> {
  if (!runner.has('SubagentStart')) return null;
  const out = await runner.run(
    'SubagentStart',
    { matchValue: agent.agentType },
    { agent_id: agent.agentId, agent_type: agent.agentType },
    signal,
  );
  return out.context.length > 0 ? hookContext('SubagentStart', out.context) : null;
}

export interface PromptHookAnswer {
  /** Why the prompt is refused (it is then not sent, nor kept), or null. */
  blocked: string | null;
  /** Context for the model, sent with the prompt. */
  context: string | null;
  /** Warnings for the person. */
  messages: string[];
}

/**
 * UserPromptSubmit: runs before the prompt is sent; a block erases it, context travels with it. The
 * context SessionStart hooks left on the runner travels with the next prompt too.
 */
export function promptHook(
  runner: HookRunner,
): (prompt: string, signal: AbortSignal) => Promise<PromptHookAnswer> | null {
  return (prompt, signal) => {
    // A SessionStart still running (the app starts it as the session opens): its context is waited for.
    const pending = runner.starting();
    if (pending)
      return pending
        .catch(() => undefined)
        .then(() => decide(prompt, signal) ?? { blocked: null, context: null, messages: [] });
    return decide(prompt, signal);
  };
  function decide(prompt: string, signal: AbortSignal): Promise<PromptHookAnswer> | null {
    const queued = runner.takeQueuedContext();
    // None configured and nothing queued: null at once, so the turn records the prompt without
    // waiting (the app's session reads the person's message back synchronously after starting it).
    if (!runner.has('UserPromptSubmit'))
      return queued.length > 0
        ? Promise.resolve({ blocked: null, context: queued.join('\n'), messages: [] })
        : null;
    return ask(prompt, signal).then((a) => ({
      ...a,
      context: [...queued, ...(a.context !== null ? [a.context] : [])].join('\n') || null,
    }));
  }
  async function ask(prompt: string, signal: AbortSignal): Promise<PromptHookAnswer> {
    const out = await runner.run('UserPromptSubmit', {}, { prompt }, signal);
    const blocked = out.blocked ?? (out.stop ? out.stop.reason : null);
    return {
      blocked,
      context: out.context.length > 0 ? hookContext('UserPromptSubmit', out.context) : null,
      messages: out.messages,
    };
  }
}

/**
 * SessionStart (`source`: startup, resume, clear, compact): its context (additionalContext, or plain
 * stdout) is queued on the runner and reaches the model with the next prompt; returns the messages
 * for the person (systemMessage, non-blocking errors). A block has nothing to stop here.
 */
export async function sessionStartHook(
  runner: HookRunner,
  source: 'startup' | 'resume' | 'clear' | 'compact',
  signal?: AbortSignal,
): Promise<string[]> {
  if (!runner.has('SessionStart')) return [];
  const out = await runner.run('SessionStart', { matchValue: source }, { source }, signal);
  if (out.context.length > 0) runner.queueContext(hookContext('SessionStart', out.context));
  return out.messages;
}

/** SessionEnd (`reason`: clear, logout, prompt_input_exit, other): run and waited for; it decides nothing. */
export async function sessionEndHook(
  runner: HookRunner,
  reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other',
): Promise<string[]> {
  if (!runner.has('SessionEnd')) return [];
  const out = await runner.run('SessionEnd', { matchValue: reason }, { reason });
  return out.messages;
}

/**
 * PreCompact and PostCompact (matched on the trigger, `manual` or `auto`). A PreCompact block (exit 2,
 * `decision: "block"`) stops the compaction; what its hooks print (or give as additionalContext) is
 * added to the summary's instructions, as Claude Code does. PostCompact gets the summary.
 */
export function compactHooks(runner: HookRunner, onMessages?: (messages: string[]) => void): CompactHooks {
  return {
    async before(trigger, instructions, signal) {
      if (!runner.has('PreCompact')) return { instructions };
      const out = await runner.run(
        'PreCompact',
        { matchValue: trigger },
        { trigger, custom_instructions: instructions ?? '' },
        signal,
      );
      if (out.messages.length > 0) onMessages?.(out.messages);
      const blocked = out.blocked ?? out.stop?.reason ?? null;
      if (blocked !== null) return { blocked };
      const parts = [instructions ?? '', ...out.context].filter((p) => p.trim() !== '');
      return { instructions: parts.length > 0 ? parts.join('\n\n') : undefined };
    },
    async after(trigger, summary) {
      const text = summary.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      // The session goes on from the summary: SessionStart (source compact), its context with the next prompt.
      const started = await sessionStartHook(runner, 'compact');
      if (started.length > 0) onMessages?.(started);
      if (!runner.has('PostCompact')) return;
      const out = await runner.run(
        'PostCompact',
        { matchValue: trigger },
        { trigger, compact_summary: text },
      );
      if (out.messages.length > 0) onMessages?.(out.messages);
    },
  };
}
