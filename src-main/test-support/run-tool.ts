import type { z } from 'zod';
import type { AnyTool, ToolOutput, ToolUseContext } from '../harness/tools/tool';

/** Runs one tool call to completion, validating input as the executor does. */
export async function runTool(
  tool: AnyTool,
  input: unknown,
  ctx: ToolUseContext,
): Promise<ToolOutput & { progress: string[] }> {
  const parsed: unknown = (tool.inputSchema as z.ZodType).parse(input);
  const gen = tool.call(parsed, ctx);
  const progress: string[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) return { ...step.value, progress };
    if (step.value.text !== undefined) progress.push(step.value.text);
  }
}

export const text = (out: ToolOutput): string =>
  typeof out.content === 'string' ? out.content : JSON.stringify(out.content);
