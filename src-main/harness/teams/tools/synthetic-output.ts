import { z } from 'zod';
import { buildTool, type ToolOutput } from '../../tools/tool';
import description from '../prompts/synthetic-output.md?raw';
import { coordinatorTeam, NO_TEAM } from './team-tool-error';

/** SyntheticOutput: the coordinator's structured final output (print mode's result). */
export const SyntheticOutputTool = buildTool({
  name: 'SyntheticOutput',
  description,
  inputSchema: z.record(z.string(), z.unknown()),
  isReadOnly: () => true,
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const team = coordinatorTeam(ctx);
    if (!team) return NO_TEAM;
    team.setOutput(input);
    return { content: 'Structured output recorded.' };
  },
});
