import { DEMO_MODEL_ID } from '@shared/domain/models';

/** What the aliases an agent file or an Agent call may use stand for today. */
const ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-5',
  haiku: 'claude-haiku-4-5',
};

/**
 * The model a sub-agent runs on. Claude Code's order: the `CLAUDE_CODE_SUBAGENT_MODEL` variable,
 * then the call's `model`, then the definition's, then the parent's (`inherit`). A session on the
 * free scripted demo model keeps it: an alias must not silently turn a demo into paid API calls.
 */
export function subagentModel(o: {
  parentModel: string;
  definitionModel: string;
  requested?: string | undefined;
  env?: NodeJS.ProcessEnv;
}): string {
  if (o.parentModel === DEMO_MODEL_ID) return o.parentModel;
  const chosen = [o.env?.['CLAUDE_CODE_SUBAGENT_MODEL'], o.requested, o.definitionModel].find(
    (m): m is string => typeof m === 'string' && m.trim() !== '',
  );
  if (chosen === undefined || chosen === 'inherit') return o.parentModel;
  return ALIASES[chosen] ?? chosen;
}
