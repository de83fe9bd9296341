import { z } from 'zod';
import { buildTool, type AnyTool, type ToolOutput } from '../../tools/tool';
import baseDescription from '../prompts/team-create.md?raw';
import { coordinatorTeam, NO_TEAM, refusal } from './team-tool-error';

const Worker = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(64)
    .describe('A short unique name to address it by: letters, digits, "-" or "_"'),
  agent_type: z.string().min(1).max(100).describe('Its agent type, from the list in this tool’s description'),
  model: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Its model (sonnet, opus, haiku or a model id); defaults to its agent type’s'),
  instructions: z.string().max(50_000).describe('Its standing instructions: role, scope, how to report'),
  plan_mode: z
    .boolean()
    .optional()
    .describe(
      'Start it in plan mode: it must send you a plan, and have it approved, before it changes anything',
    ),
});

const inputSchema = z.strictObject({
  workers: z.array(Worker).min(1).max(32).describe('The workers to create'),
});

/** TeamCreate: the coordinator creates named workers (the agent types are listed as of each request). */
export function teamCreateTool(agentTypes: () => { name: string; description: string }[]): AnyTool {
  const tool = buildTool({
    name: 'TeamCreate',
    description: baseDescription,
    inputSchema,
    // It changes no file: what the workers do is checked call by call.
    isReadOnly: () => true,
    // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
    async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
      const team = coordinatorTeam(ctx);
      if (!team) return NO_TEAM;
      try {
        const made = team.create(
          input.workers.map((w) => ({
            name: w.name,
            agentType: w.agent_type,
            model: w.model,
            instructions: w.instructions,
            planMode: w.plan_mode === true,
          })),
        );
        const lines = made.map(
          (m) => `- ${m.name} (${m.agentType}, ${m.model}${m.planMode ? ', plan mode' : ''})`,
        );
        return {
          content: `Created ${made.length === 1 ? 'a worker' : `${made.length} workers`}:\n${lines.join('\n')}\nSend each its work with SendMessage.`,
        };
      } catch (error) {
        return refusal(error);
      }
    },
  });
  Object.defineProperty(tool, 'description', {
    get: () =>
      `${baseDescription}\nAvailable agent types:\n${agentTypes()
        .map((a) => `- ${a.name}: ${a.description}`)
        .join('\n')}`,
  });
  return tool;
}
