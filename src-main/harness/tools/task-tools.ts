import { z } from 'zod';
import description from './prompts/bash-output.md?raw';
import killDescription from './prompts/kill-shell.md?raw';
import taskOutputDescription from './prompts/task-output.md?raw';
import { buildTool, type ToolOutput } from './tool';

export const BashOutputTool = buildTool({
  name: 'BashOutput',
  description,
  inputSchema: z.strictObject({
    bash_id: z.string().min(1).describe('The background task id'),
    filter: z.string().optional().describe('Only lines matching this regular expression'),
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    let filter: RegExp | undefined;
    try {
      filter = input.filter === undefined ? undefined : new RegExp(input.filter);
    } catch (error) {
      return {
        content: `The filter is not a valid regular expression: ${(error as Error).message}`,
        isError: true,
      };
    }
    const read = ctx.tasks?.readNew(input.bash_id, filter);
    if (!read)
      return { content: `There is no background task ${input.bash_id} in this session.`, isError: true };
    const state =
      read.status === 'running' ? 'still running' : `${read.status} (exit code ${String(read.exitCode)})`;
    const skipped =
      read.skipped > 0 ? `[${read.skipped} older characters were dropped before you read them]\n` : '';
    return {
      content: `<status>${state}</status>\n${skipped}${read.output === '' ? '(no new output)' : read.output}`,
    };
  },
});

export const KillShellTool = buildTool({
  name: 'KillShell',
  description: killDescription,
  inputSchema: z.strictObject({ shell_id: z.string().min(1).describe('The background task id') }),
  // It stops only a process this session started.
  isReadOnly: () => true,
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    if (!ctx.tasks) return { content: 'Background tasks are not available here.', isError: true };
    return ctx.tasks.kill(input.shell_id)
      ? { content: `Stopped background task ${input.shell_id}.` }
      : { content: `Background task ${input.shell_id} is not running (or does not exist).`, isError: true };
  },
});

/** Longest a blocking TaskOutput waits, so a stuck task cannot hold the turn forever. */
const MAX_WAIT_MS = 600_000;

export const TaskOutputTool = buildTool({
  name: 'TaskOutput',
  description: taskOutputDescription,
  inputSchema: z.strictObject({
    task_id: z.string().min(1).describe('The background task id (an agent or a command)'),
    block: z.boolean().optional().describe('Wait for the task to end before answering (default false)'),
    timeout: z
      .number()
      .int()
      .positive()
      .max(MAX_WAIT_MS)
      .optional()
      .describe('How long to wait when blocking, in milliseconds (default 60000)'),
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // eslint-disable-next-line require-yield -- no progress
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    if (!ctx.tasks) return { content: 'Background tasks are not available here.', isError: true };
    if (input.block === true)
      await ctx.tasks.waitFor(input.task_id, input.timeout ?? 60_000, ctx.abortSignal);
    const read = ctx.tasks.readNew(input.task_id);
    if (!read)
      return { content: `There is no background task ${input.task_id} in this session.`, isError: true };
    return {
      content: `<status>${read.status}</status>\n${read.output === '' ? '(no new output)' : read.output}`,
    };
  },
});
