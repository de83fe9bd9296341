import { AppError } from '../../../platform/errors';
import type { CoordinatorTeam, TeamCapability, ToolOutput, ToolUseContext } from '../../tools/tool';

/** A team refusal (unknown worker, taken name) as a result the model reads; other errors go on up. */
export function refusal(error: unknown): ToolOutput {
  if (error instanceof AppError) return { content: error.message, isError: true };
  throw error;
}

/** The coordinator's team, or null where this agent leads none. */
export function coordinatorTeam(ctx: ToolUseContext): CoordinatorTeam | null {
  const team: TeamCapability | undefined = ctx.team;
  return team?.role === 'coordinator' ? team : null;
}

export const NO_TEAM: ToolOutput = {
  content: 'Only a coordinator session has a team to manage.',
  isError: true,
};
