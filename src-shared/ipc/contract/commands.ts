import { z } from 'zod';
import { channel, ProjectRef } from './common';

/**
 * Slash commands for the composer's autocomplete: the built-ins (handled by the app, never sent as
 * text, except `/compact`, which the engine runs) and the project's and user's custom commands
 * (Markdown files; the main process expands them when a message starting with one is sent).
 */

export const BuiltinCommandInfo = z.strictObject({
  name: z.string(),
  description: z.string(),
  argumentHint: z.string().nullable(),
  /** Whether `carapace -p` can run it (only what needs no window). */
  printMode: z.boolean(),
});
export type BuiltinCommandInfo = z.infer<typeof BuiltinCommandInfo>;

/** The built-ins whose features exist in the app (`/agents` opens Settings → Agents). */
export const BUILTIN_COMMANDS: readonly BuiltinCommandInfo[] = [
  { name: 'agents', description: 'Sub-agent definitions (Settings)', argumentHint: null, printMode: false },
  {
    name: 'clear',
    description: 'Start a new conversation (a new session)',
    argumentHint: null,
    printMode: false,
  },
  {
    name: 'compact',
    description: 'Summarize the conversation to free context',
    argumentHint: '[instructions]',
    printMode: true,
  },
  { name: 'cost', description: "This session's cost and tokens", argumentHint: null, printMode: false },
  { name: 'help', description: 'List the commands', argumentHint: null, printMode: false },
  { name: 'mcp', description: 'MCP servers (Settings)', argumentHint: null, printMode: false },
  { name: 'memory', description: 'Instruction files and memories', argumentHint: null, printMode: false },
  { name: 'model', description: "Switch this session's model", argumentHint: '[model]', printMode: false },
  { name: 'permissions', description: 'Permission rules (Settings)', argumentHint: null, printMode: false },
  { name: 'resume', description: 'Archived and earlier sessions', argumentHint: null, printMode: false },
  {
    name: 'rewind',
    description: 'Rewind the conversation and files to your last message',
    argumentHint: null,
    printMode: false,
  },
];

export function isBuiltinCommand(name: string): boolean {
  return BUILTIN_COMMANDS.some((c) => c.name === name);
}

export const CustomCommandInfo = z.strictObject({
  /** Without the slash; a subfolder gives `namespace:name`. */
  name: z.string().max(400),
  scope: z.enum(['project', 'user']),
  description: z.string().max(400),
  argumentHint: z.string().max(400).nullable(),
  model: z.string().max(200).nullable(),
  allowedTools: z.array(z.string().max(1000)).max(200),
});
export type CustomCommandInfo = z.infer<typeof CustomCommandInfo>;

export const CommandList = z.strictObject({
  commands: z.array(CustomCommandInfo).max(1000),
  /** Files that were not loaded, and why (shown under the list, never silently dropped). */
  problems: z.array(z.strictObject({ file: z.string().max(4000), message: z.string().max(2000) })).max(1000),
});
export type CommandList = z.infer<typeof CommandList>;

export const requests = {
  /** The custom commands of a project and of the user, read afresh (a file edited since applies). */
  'commands.list': channel(ProjectRef, CommandList),
} as const;

export const events = {} as const;
