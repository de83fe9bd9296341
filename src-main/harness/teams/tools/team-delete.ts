import { z } from 'zod';
import { buildTool, type ToolOutput } from '../../tools/tool';
import description from '../prompts/team-delete.md?raw';
import { coordinatorTeam, NO_TEAM, refusal } from './team-tool-error';

/** TeamDelete: the coordinator ends workers; they stop what they are doing. */
export const TeamDeleteTool = buildTool({
  name: 'TeamDelete',
  description,
  inputSchema: z.strictObject({
    workers: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(64)
      .describe('Names of the workers to end, or ["*"] for every worker'),
  }),
  isReadOnly: () => true,
  // eslint-disable-next-line require-yield -- no progress
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const team = coordinatorTeam(ctx);
    if (!team) return NO_TEAM;
    try {
      const ended = await team.remove(input.workers);
      return {
        content: ended.length === 0 ? 'There were no workers to end.' : `Ended: ${ended.join(', ')}.`,
      };
    } catch (error) {
      return refusal(error);
    }
  },
});
