import type { Decider, PermissionAnswer, PermissionHandler } from '../permissions/handlers';
import type { HookRunner } from './dispatch';
import { hookApprovalHeld, hookWho } from './permission-verdicts';

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
export function permissionRequestDecider(runner: HookRunner): Decider {
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
      // outside the project. The person (or, in -p, the refusal) decides those.
      const held = hookApprovalHeld(request.input);
      if (held) {
        heldNotes.set(request.input, `${who} allowed it, but no hook may approve this: ${held}`);
        return null;
      }
      return { behavior: 'allow', by: 'hook', note: `allowed by ${who}${a.message ? `: ${a.message}` : ''}` };
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
export function hooksOnlyHandler(runner: HookRunner): PermissionHandler {
  const decide = permissionRequestDecider(runner);
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
