import type { Decider, PermissionAnswer, PermissionHandler } from '../permissions/handlers';
import { parseRule } from '../permissions/rule';
import type { HookRunner } from './dispatch';
import { hookApprovalHeld, hookWho } from './permission-verdicts';
import type { HookSource } from './sources';

type SessionRule = NonNullable<Extract<PermissionAnswer, { behavior: 'allow' }>['sessionRules']>[number];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The part of a PermissionRequest hook's `updatedPermissions` Carapace honours: `addRules` for the
 * session (gone when it ends). Anything that would outlive the session (a settings file's
 * destination, `setMode`, directories) is set aside: a hook never writes settings files. A hook of
 * the project's own files may add none unless the project is trusted (in the app its hooks run only
 * then; in -p they run without trust, so there they add nothing).
 */
export function sessionRulesOf(
  updates: readonly unknown[],
  source: HookSource,
  projectRoot: string,
  projectTrusted: boolean,
): { rules: SessionRule[]; ignored: string[] } {
  const rules: SessionRule[] = [];
  const ignored: string[] = [];
  if (updates.length === 0) return { rules, ignored };
  if ((source === 'project' || source === 'local') && !projectTrusted)
    return { rules, ignored: ['a hook of an untrusted project may not add permission rules'] };
  for (const u of updates) {
    const type = isObject(u) ? u['type'] : undefined;
    const behavior = isObject(u) ? u['behavior'] : undefined;
    const list = isObject(u) ? u['rules'] : undefined;
    if (!isObject(u) || type !== 'addRules' || u['destination'] !== 'session') {
      ignored.push(
        `${typeof type === 'string' ? type.slice(0, 40) : 'an update'}${isObject(u) && typeof u['destination'] === 'string' ? ` to ${u['destination'].slice(0, 40)}` : ''} (only addRules to the session is honoured)`,
      );
      continue;
    }
    if ((behavior !== 'allow' && behavior !== 'deny' && behavior !== 'ask') || !Array.isArray(list)) {
      ignored.push('addRules without a behavior (allow, deny, ask) and a rules list');
      continue;
    }
    for (const r of list) {
      const tool = isObject(r) ? r['toolName'] : undefined;
      const content = isObject(r) ? r['ruleContent'] : undefined;
      const text =
        typeof tool === 'string' && (content === undefined || typeof content === 'string')
          ? content === undefined
            ? tool
            : `${tool}(${content})`
          : null;
      try {
        if (text === null) throw new Error('not {toolName, ruleContent?}');
        parseRule(text, 'session', behavior, projectRoot);
        rules.push({ behavior, rule: text });
      } catch (error) {
        ignored.push(`a rule that is not valid (${(error as Error).message.slice(0, 200)})`);
      }
    }
  }
  return { rules, ignored };
}

/** A rule text (`Bash(npm test:*)`) as Claude Code's `permission_suggestions` entry. */
function suggestion(rule: string): object {
  const m = /^([^(]+)(?:\((.*)\))?$/s.exec(rule);
  const toolName = m?.[1] ?? rule;
  return {
    type: 'addRules',
    rules: [m?.[2] !== undefined ? { toolName, ruleContent: m[2] } : { toolName }],
    behavior: 'allow',
    destination: 'localSettings',
  };
}

/** Why a hook's allow was set aside, for the refusal's note where nobody can be asked. */
const heldNotes = new WeakMap<object, string>();

/**
 * PermissionRequest hooks as one party of the permission race (permissions/handlers.ts): they run
 * when a permission dialog would be shown, and `hookSpecificOutput.decision.behavior` (allow or deny)
 * answers it, by "hook", with the hook's settings file in the log. No answer: no opinion.
 */
export function permissionRequestDecider(
  runner: HookRunner,
  o: { projectRoot?: string; projectTrusted?: boolean } = {},
): Decider {
  return async (request, signal) => {
    if (!runner.has('PermissionRequest')) return null;
    const out = await runner.run(
      'PermissionRequest',
      { toolName: request.toolName, toolInput: request.input },
      {
        tool_name: request.toolName,
        tool_input: request.input,
        permission_suggestions: request.suggestions.map(suggestion),
        ...(request.agent ? { agent_id: request.agent.id, agent_type: request.agent.agentType } : {}),
      },
      signal,
    );
    const a = out.answer;
    if (!a) return null;
    const who = hookWho('PermissionRequest', a.source, a.file);
    if (a.behavior === 'allow') {
      // As for a PreToolUse allow: no hook approves a protected path, Carapace's folder or a write
      // outside the project. The person (or, in -p, the refusal) decides those. A changed input is
      // a new call that the gate judges again, containment included (engine-gate.ts); the input it
      // replaces does not run.
      const held = a.updatedInput ? null : hookApprovalHeld(request.input);
      if (held) {
        heldNotes.set(request.input, `${who} allowed it, but no hook may approve this: ${held}`);
        return null;
      }
      const { rules, ignored } =
        o.projectRoot === undefined
          ? {
              rules: [],
              ignored: a.updatedPermissions.length > 0 ? ['this session keeps no hook rules'] : [],
            }
          : sessionRulesOf(a.updatedPermissions, a.source, o.projectRoot, o.projectTrusted === true);
      const notes = [
        ...(a.message ? [a.message] : []),
        ...(rules.length > 0
          ? [`added for this session: ${rules.map((r) => `${r.behavior} ${r.rule}`).join(', ')}`]
          : []),
        ...(ignored.length > 0 ? [`updatedPermissions not honoured: ${ignored.join('; ')}`] : []),
      ];
      return {
        behavior: 'allow',
        by: 'hook',
        note: `allowed by ${who}${notes.length > 0 ? `: ${notes.join('; ')}` : ''}`,
        ...(a.updatedInput ? { updatedInput: { input: a.updatedInput, held: hookApprovalHeld } } : {}),
        ...(rules.length > 0 ? { sessionRules: rules } : {}),
      };
    }
    return {
      behavior: 'deny',
      by: 'hook',
      ...(a.message ? { feedback: a.message } : {}),
      note: `refused by ${who}${a.message ? `: ${a.message}` : ''}`,
    };
  };
}

/**
 * Where nobody can be asked (print mode): the PermissionRequest hooks alone answer; without an
 * answer the call is refused, as in Claude Code's non-interactive runs.
 */
export function hooksOnlyHandler(runner: HookRunner, projectRoot?: string): PermissionHandler {
  // Where nobody can be asked the project's hooks run untrusted (-p): they add no rules.
  const decide = permissionRequestDecider(runner, projectRoot ? { projectRoot } : {});
  return {
    async resolve(request, signal): Promise<PermissionAnswer> {
      const answer = await decide(request, signal);
      if (answer) return answer;
      const held = heldNotes.get(request.input);
      return held
        ? {
            behavior: 'deny',
            by: 'default',
            feedback: `${request.reason}; it needs a person's approval and nobody can be asked here (${held})`,
            note: `${request.reason} — ${held}; nobody can be asked here`,
          }
        : {
            behavior: 'deny',
            by: 'default',
            // The gate words the refusal by `by`; the feedback says why to the model.
            feedback: `${request.reason}; it needs approval, nobody can be asked here and no PermissionRequest hook answered`,
            note: `${request.reason} — it needs approval and nobody can be asked here (no PermissionRequest hook answered)`,
          };
    },
  };
}
