import { DEMO_MODEL_ID } from '@shared/domain/models';
import { priceFor } from '../cost/pricing';
import type { AgentDefinition } from './definition';

/** What the aliases an agent file or an Agent call may use stand for today. */
const ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-5',
  haiku: 'claude-haiku-4-5',
};

/** Whether `model` is known to cost no more per token than `than` (unknown prices prove nothing). */
function noDearer(model: string, than: string): boolean {
  if (model === than) return true;
  const a = priceFor(model);
  const b = priceFor(than);
  return a !== null && b !== null && a.input <= b.input && a.output <= b.output;
}

/**
 * The model a sub-agent runs on. Claude Code's order: the `CLAUDE_CODE_SUBAGENT_MODEL` variable,
 * then the call's `model`, then the definition's, then the parent's (`inherit`). A session on the
 * free scripted demo model keeps it: an alias must not silently turn a demo into paid API calls.
 * A project's agent file is the repository's word, not the person's: its `model` may make a
 * sub-agent cheaper than the parent, never dearer (a cloned repository shipping a general-purpose
 * agent on Opus would otherwise raise the price of every delegation); otherwise it inherits.
 */
export function subagentModel(o: {
  parentModel: string;
  definitionModel: string;
  /** Where the definition comes from; a project's file cannot choose a dearer model. */
  definitionSource?: AgentDefinition['source'];
  requested?: string | undefined;
  env?: NodeJS.ProcessEnv;
}): string {
  if (o.parentModel === DEMO_MODEL_ID) return o.parentModel;
  const given = (m: string | undefined): m is string => typeof m === 'string' && m.trim() !== '';
  const envModel = o.env?.['CLAUDE_CODE_SUBAGENT_MODEL'];
  const chosen = [envModel, o.requested, o.definitionModel].find(given);
  if (chosen === undefined || chosen === 'inherit') return o.parentModel;
  const model = ALIASES[chosen] ?? chosen;
  const fromFile = !given(envModel) && !given(o.requested);
  if (fromFile && o.definitionSource === 'project' && !noDearer(model, o.parentModel)) return o.parentModel;
  return model;
}
