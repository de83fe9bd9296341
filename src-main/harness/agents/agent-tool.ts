import { z } from 'zod';
import baseDescription from './prompts/agent-tool.md?raw';
import type { AgentSpawner, AnyTool, SpawnResult, ToolOutput, ToolProgress } from '../tools/tool';
import { buildTool } from '../tools/tool';

/**
 * Background agents one agent may have running at once. A background call returns at once, so
 * without a limit one message of a few hundred such calls would start that many paid loops at the
 * same moment; ten matches how many foreground calls run at once (the executor's limit).
 */
export const MAX_RUNNING_BACKGROUND_AGENTS = 10;

const inputSchema = z.strictObject({
  description: z.string().min(1).max(200).describe('A short (3-5 word) description of the task'),
  prompt: z.string().min(1).describe('The task for the agent to perform'),
  subagent_type: z.string().min(1).describe('The type of specialized agent to use for this task'),
  model: z
    .string()
    .min(1)
    .optional()
    .describe('Optional model for this agent (sonnet, opus, haiku or a model id); defaults to its own'),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run the agent in the background; read its result later with TaskOutput'),
});

function resultText(r: SpawnResult): string {
  const text = r.text.trim() === '' ? '(The agent ended without a final answer.)' : r.text;
  if (r.reason === 'aborted') return `Interrupted by user: the ${r.agentType} agent was stopped.\n${text}`;
  if (r.reason !== 'completed') return `The ${r.agentType} agent ended early (${r.reason}).\n${text}`;
  if (r.verdict && !r.verdict.found) return `${text}\n\nVERDICT: FAIL (${r.verdict.reasons})`;
  return text;
}

/**
 * The Agent tool (Claude Code's name and fields). Each call starts a sub-agent through the runtime's
 * spawner: its events pass up as this call's progress, its final text is the result. It is read-only
 * to the permission engine (the sub-agent's own calls are each checked), and concurrency-safe, so
 * several Agent calls in one message run at once.
 */
export function agentTool(spawner: AgentSpawner): AnyTool {
  const tool = buildTool({
    name: 'Agent',
    description: baseDescription,
    inputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async *call(input, ctx): AsyncGenerator<ToolProgress, ToolOutput> {
      const known = spawner.catalog();
      if (!known.some((a) => a.name === input.subagent_type))
        return {
          // Named back at most in part: a huge made-up name need not fill the context twice.
          content: `There is no agent type "${input.subagent_type.length > 100 ? `${input.subagent_type.slice(0, 100)}…` : input.subagent_type}". Available: ${known.map((a) => a.name).join(', ') || 'none'}.`,
          isError: true,
        };
      const request = {
        agentType: input.subagent_type,
        prompt: input.prompt,
        description: input.description,
        model: input.model,
        toolUseId: ctx.toolUseId,
      };
      if (input.run_in_background === true) {
        if (!ctx.tasks) return { content: 'Background agents are not available here.', isError: true };
        const running = ctx.tasks
          .list()
          .filter((t) => t.kind === 'local_agent' && t.status === 'running').length;
        if (running >= MAX_RUNNING_BACKGROUND_AGENTS)
          return {
            content: `Not started: at most ${MAX_RUNNING_BACKGROUND_AGENTS} background agents run at once, and ${running} are running. Wait for one to end (TaskOutput with block: true), stop one (KillShell with its task id), or run this agent in the foreground.`,
            isError: true,
          };
        const task = ctx.tasks.startAgent({
          description: input.description,
          prompt: input.prompt,
          run: (signal) => spawner.run(request, signal),
        });
        return {
          content: `Started the ${input.subagent_type} agent in the background as task ${task.id}. You will be told when it ends; read its result with TaskOutput (task_id "${task.id}").`,
          display: {
            kind: 'agent',
            agentId: null,
            agentType: input.subagent_type,
            taskId: task.id,
            background: true,
          },
        };
      }
      const run = spawner.run(request, ctx.abortSignal);
      let result: SpawnResult;
      for (;;) {
        const step = await run.next();
        if (step.done) {
          result = step.value;
          break;
        }
        yield { agent: step.value };
      }
      return {
        content: resultText(result),
        isError: result.reason !== 'completed',
        display: {
          kind: 'agent',
          agentId: result.agentId,
          agentType: result.agentType,
          model: result.model,
          background: false,
          costUsd: result.costUsd,
          totalCostUsd: result.totalCostUsd,
          totalTokens: result.totalTokens,
          toolUseCount: result.toolUseCount,
          durationMs: result.durationMs,
          ...(result.verdict
            ? { verdict: result.verdict.verdict, verdictReasons: result.verdict.reasons }
            : {}),
        },
      };
    },
  });
  // The catalogue is read when the request is built, so agent files added mid-session are offered.
  Object.defineProperty(tool, 'description', {
    get: () =>
      `${baseDescription}\n\nAvailable agent types:\n${spawner
        .catalog()
        .map((a) => `- ${a.name}: ${a.description}`)
        .join('\n')}`,
  });
  return tool;
}
