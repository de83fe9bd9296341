import { AppError } from '../../platform/errors';
import type { WorkerSpec } from '../tools/tool';
import { nameProblem, sameName } from './names';

/** Workers active at once in one team. */
export const MAX_WORKERS = 32;
const MAX_INSTRUCTIONS = 50_000;

/** Checks a TeamCreate request whole, so a bad worker creates none; throws a clear error. */
export function checkSpecs(
  specs: readonly WorkerSpec[],
  activeNames: readonly string[],
  agentTypes: readonly string[],
): void {
  if (specs.length === 0) throw new AppError('INVALID_INPUT', 'Name at least one worker to create.');
  if (activeNames.length + specs.length > MAX_WORKERS)
    throw new AppError(
      'CONFLICT',
      `A team has at most ${MAX_WORKERS} workers at once; it has ${activeNames.length}.`,
    );
  specs.forEach((spec, i) => {
    const bad = nameProblem(spec.name);
    if (bad) throw new AppError('INVALID_INPUT', bad);
    const taken = [...activeNames, ...specs.slice(0, i).map((s) => s.name)];
    if (taken.some((n) => sameName(n, spec.name)))
      throw new AppError('CONFLICT', `There is already a worker named "${spec.name}"; names must be unique.`);
    if (!agentTypes.includes(spec.agentType))
      throw new AppError(
        'NOT_FOUND',
        `There is no agent type "${spec.agentType}". Available: ${agentTypes.join(', ') || 'none'}.`,
      );
    if (spec.instructions.length > MAX_INSTRUCTIONS)
      throw new AppError(
        'INVALID_INPUT',
        `The instructions for "${spec.name}" are too long (${MAX_INSTRUCTIONS} characters at most).`,
      );
  });
}
