import { z } from 'zod';
import description from './prompts/todo-write.md?raw';
import { buildTool, type ToolOutput } from './tool';

const inputSchema = z.strictObject({
  todos: z
    .array(
      z.strictObject({
        content: z.string().min(1).describe('The task, in the imperative'),
        status: z.enum(['pending', 'in_progress', 'completed']),
        activeForm: z.string().min(1).describe('The task in present continuous, shown while it runs'),
      }),
    )
    .describe('The whole updated list'),
});

export const TodoWriteTool = buildTool({
  name: 'TodoWrite',
  description,
  inputSchema,
  // Only changes the session's own list: safe, but it is state, so it runs alone.
  isReadOnly: () => true,
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    ctx.todos.items = input.todos;
    const open = input.todos.filter((t) => t.status !== 'completed').length;
    return {
      content: `Todos have been updated (${input.todos.length} items, ${open} not completed). Keep using the list to track progress.`,
      display: { kind: 'todos', todos: input.todos.map(({ content, status }) => ({ content, status })) },
    };
  },
});
