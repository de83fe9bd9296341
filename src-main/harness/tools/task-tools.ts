import { z } from 'zod';
import description from './prompts/bash-output.md?raw';
import killDescription from './prompts/kill-shell.md?raw';
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
