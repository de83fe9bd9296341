import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { DecidedBy, PermissionLogEntry } from '@shared/domain/permissions';
import type { AnyTool, ToolUseContext } from '../tools/tool';
import { previewFileChange } from './edit-preview';
import type { GateDecision, PermissionGate } from './gate';
import type { PermissionDecision, PermissionEngine } from './engine';
import { spellHidden } from './visible-text';
import type { PermissionAnswer, PermissionHandler, PermissionRequest } from './handlers';

export type { PermissionLogEntry };

export interface EngineGateOptions {
  engine: PermissionEngine;
  sessionId: string;
  /** Who answers an "ask"; null where nobody can be asked (print mode): asks become denials. */
  handler: PermissionHandler | null;
  onDecision?: (entry: PermissionLogEntry) => void;
  /** Persists an "Always allow" rule (to .claude/settings.local.json). */
  onAlwaysAllow?: (rule: string) => void;
  /**
   * Adds rules for this session only (a PermissionRequest hook's `updatedPermissions` with
   * destination `session`); without it such rules are not kept. Never a settings file.
   */
  onSessionRules?: (rules: { behavior: 'allow' | 'deny' | 'ask'; rule: string }[]) => void;
}

/**
 * The call's subject, for prompts and the log, with hidden characters spelled out: a bidi override
 * must not make `rm -rf ~` read as something harmless in the dialog a person approves.
 */
export function summarize(tool: AnyTool, input: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'path', 'url', 'pattern']) {
    const v = input[key];
    if (typeof v === 'string') return spellHidden(v);
  }
  return tool.name;
}

/** The PermissionGate the executor calls: the engine decides; asks go to the session's handler. */
export class EngineGate implements PermissionGate {
  constructor(private readonly o: EngineGateOptions) {}

  filterTools(tools: readonly AnyTool[]): AnyTool[] {
    return this.o.engine.filterTools(tools);
  }

  async check(tool: AnyTool, input: unknown, ctx: ToolUseContext): Promise<GateDecision> {
    const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const decision = await this.o.engine.decide(tool, args, ctx);
    const summary = summarize(tool, args);
    const log = (
      behavior: 'allow' | 'deny',
      decidedBy: DecidedBy,
      reason: string,
      d?: PermissionDecision,
      addedRule?: string,
      ran?: Record<string, unknown>,
    ) => {
      const entry: PermissionLogEntry = {
        id: randomUUID(),
        at: new Date().toISOString(),
        toolName: tool.name,
        toolUseId: ctx.toolUseId,
        summary: ran ? summarize(tool, ran) : summary,
        input: ran ?? args,
        behavior,
        decidedBy,
        reason,
      };
      if (d?.rule) entry.rule = { text: d.rule.text, source: d.rule.source };
      if (addedRule) entry.addedRule = addedRule;
      if (decision.behavior === 'ask' && decision.suggestions.length > 0)
        entry.suggestions = decision.suggestions;
      this.o.onDecision?.(entry);
    };
    const allowed: GateDecision = decision.checkedPaths
      ? { behavior: 'allow', checkedPaths: decision.checkedPaths }
      : { behavior: 'allow' };
    if (decision.behavior === 'allow') {
      log('allow', decision.decidedBy, decision.reason, decision);
      return allowed;
    }
    if (decision.behavior === 'deny') {
      log('deny', decision.decidedBy, decision.reason, decision);
      return { behavior: 'deny', message: `Permission to use ${tool.name} was denied: ${decision.reason}.` };
    }
    if (!this.o.handler) {
      const reason = `${decision.reason} — it needs approval and nobody can be asked here`;
      log('deny', 'mode', reason, decision);
      return { behavior: 'deny', message: `Permission to use ${tool.name} was denied: ${reason}.` };
    }
    const request: PermissionRequest = {
      id: randomUUID(),
      sessionId: this.o.sessionId,
      toolName: tool.name,
      toolUseId: ctx.toolUseId,
      input: args,
      summary,
      reason: decision.reason,
      suggestions: decision.suggestions,
    };
    // Nobody should approve a change to a file without seeing it.
    const preview = await previewFileChange(tool.name, args, ctx);
    if (preview) request.preview = preview;
    const answer: PermissionAnswer = await this.o.handler.resolve(request, ctx.abortSignal);
    // Session rules a hook's allow adds, once the call it answered is allowed (not before the changed
    // input is judged: its own new rules must not be what lets it through).
    const addSessionRules = (a: Extract<PermissionAnswer, { behavior: 'allow' }>) => {
      if (a.sessionRules && a.sessionRules.length > 0) this.o.onSessionRules?.(a.sessionRules);
    };
    if (answer.behavior === 'allow' && answer.updatedInput) {
      const updated = answer.updatedInput.input;
      const who = answer.note ?? `allowed by ${answer.by}`;
      const refuse = (why: string, d?: PermissionDecision): GateDecision => {
        log(
          'deny',
          answer.by,
          `${who}, with a changed input (${summarize(tool, updated)}) that ${why}`,
          d,
          undefined,
          updated,
        );
        return {
          behavior: 'deny',
          message: `Permission to use ${tool.name} was denied: a PermissionRequest hook allowed it with a changed input that ${why}.`,
        };
      };
      // The changed input is a new call: it must fit the tool, as the model's must ...
      const fits = (tool.inputSchema as z.ZodType).safeParse(updated);
      if (!fits.success)
        return refuse(
          `is not valid (InputValidationError: ${fits.error.issues.map((i) => `${i.path.map(String).join('.') || '(input)'}: ${i.message}`).join('; ')})`,
        );
      // ... and pass the rules and the project's containment again: a hook must not turn an approved
      // `ls` into `rm -rf ~`, or a Write the person saw into one to `.git/hooks/x`.
      const again = await this.o.engine.decide(tool, updated, ctx);
      if (again.behavior === 'deny') return refuse(`the rules refuse: ${again.reason}`, again);
      if (again.behavior === 'ask') {
        // The hook's allow answers the new ask only where a hook may answer at all.
        const held = answer.updatedInput.held(updated);
        if (held) return refuse(`no hook may approve: ${held}`, again);
      }
      log('allow', answer.by, `${who}, with a changed input (was: ${summary})`, again, undefined, updated);
      addSessionRules(answer);
      return {
        behavior: 'allow',
        updatedInput: updated,
        ...(again.checkedPaths ? { checkedPaths: again.checkedPaths } : {}),
      };
    }
    if (answer.behavior === 'allow') {
      addSessionRules(answer);
      for (const rule of answer.alwaysRules ?? []) this.o.onAlwaysAllow?.(rule);
      log(
        'allow',
        answer.by,
        answer.note ?? `approved by ${answer.by}`,
        undefined,
        answer.alwaysRules?.join('\n'),
      );
      return allowed;
    }
    const feedback = answer.feedback?.trim();
    log('deny', answer.by, answer.note ?? `refused by ${answer.by}${feedback ? `: ${feedback}` : ''}`);
    return {
      behavior: 'deny',
      message: `Permission to use ${tool.name} was denied by the ${answer.by === 'user' ? 'person supervising you' : answer.by}.${feedback ? ` Their feedback: ${feedback}` : ''}`,
    };
  }
}
