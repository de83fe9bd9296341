import { DEMO_MODEL_ID } from '@shared/domain/models';
import { priceFor } from '../cost/pricing';
import type { CustomCommand } from './types';

const ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-5',
  haiku: 'claude-haiku-4-5',
};

/**
 * The model of the turn a command starts, and why not the file's when it is not. A session on the
 * free demo model keeps it (a command must not turn a demo into paid calls). A project's command
 * file is the repository's word: its `model` may be cheaper than the session's, never dearer or of
 * unknown price (a cloned repository could otherwise put every `/review` on the dearest model).
 */
export function commandTurnModel(
  sessionModel: string,
  command: Pick<CustomCommand, 'model' | 'scope' | 'name'>,
): { model: string; notice: string | null } {
  if (command.model === null) return { model: sessionModel, notice: null };
  const wanted = ALIASES[command.model] ?? command.model;
  if (sessionModel === DEMO_MODEL_ID)
    return { model: sessionModel, notice: `/${command.name} asks for ${wanted}; the demo model stays.` };
  if (command.scope === 'project' && wanted !== sessionModel) {
    const a = priceFor(wanted);
    const b = priceFor(sessionModel);
    const noDearer = a !== null && b !== null && a.input <= b.input && a.output <= b.output;
    if (!noDearer)
      return {
        model: sessionModel,
        notice: `/${command.name} (a project command) asks for ${wanted}, which is dearer than ${sessionModel} or of unknown price; the session's model is used.`,
      };
  }
  return { model: wanted, notice: null };
}
