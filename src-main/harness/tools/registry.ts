import { BashTool } from './bash';
import { BashOutputTool, KillShellTool, TaskOutputTool } from './task-tools';
import { EditTool } from './edit';
import { GlobTool } from './glob';
import { GrepTool } from './grep';
import { ReadTool } from './read';
import type { AnyTool } from './tool';
import { TodoWriteTool } from './todo-write';
import { WebFetchTool } from './web-fetch';
import { WebSearchTool } from './web-search';
import { WriteTool } from './write';

/** The built-in tools, in the order the model sees them. */
export function builtinTools(): AnyTool[] {
  return [
    ReadTool,
    WriteTool,
    EditTool,
    GlobTool,
    GrepTool,
    BashTool,
    BashOutputTool,
    KillShellTool,
    TaskOutputTool,
    TodoWriteTool,
    WebFetchTool,
    WebSearchTool,
  ];
}

export function toolByName(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name);
}
