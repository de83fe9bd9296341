import { z } from 'zod';
import { buildTool, type ToolOutput } from '../../tools/tool';
import description from '../prompts/submit-plan.md?raw';
import { refusal } from './team-tool-error';

/** SubmitPlan: a worker in plan mode sends its plan to the coordinator for approval. */
export const SubmitPlanTool = buildTool({
  name: 'SubmitPlan',
  description,
  inputSchema: z.strictObject({
    plan: z
      .string()
      .min(1)
      .max(50_000)
      .describe('What you would change, step by step, and how you would check it'),
  }),
  // Plan mode lets only read-only tools run; sending a plan changes nothing.
  isReadOnly: () => true,
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    if (ctx.team?.role !== 'worker')
      return { content: 'Only a worker of a team submits plans.', isError: true };
    try {
      ctx.team.submitPlan(input.plan);
      return {
        content:
          'Your plan was sent for approval. End your turn now; you will be told whether it was approved or rejected.',
      };
    } catch (error) {
      return refusal(error);
    }
  },
});
