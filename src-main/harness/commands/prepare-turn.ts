import { BUILTIN_COMMANDS } from '@shared/ipc/contract/commands';
import { loadCustomCommands, type CommandFolders } from './load-commands';
import { CommandTooLongError } from './expand';
import { resolveSlashPrompt, type SlashPrompt } from './resolve';
import type { CommandFileProblem, CustomCommand } from './types';

export type PreparedTurn =
  | {
      kind: 'send';
      /** What goes to the engine: the prompt as typed, or a custom command's expanded body. */
      prompt: string;
      /** The custom command that produced it, if any (its `model` and `allowed-tools` apply). */
      command: CustomCommand | null;
      problems: CommandFileProblem[];
    }
  | { kind: 'error'; message: string; problems: CommandFileProblem[] };

/**
 * Turns a prompt into what a turn sends. A custom command is expanded; `/compact` passes through
 * (the engine runs it); a built-in that needs a window, in a place without one, and an unknown
 * `/name` are errors with Claude Code's wording, rather than text sent to the model by mistake.
 * The command files are read afresh here, so an edit between two messages applies to the second.
 */
export function prepareTurn(prompt: string, folders: CommandFolders, where: 'print' | 'app'): PreparedTurn {
  if (!prompt.trimStart().startsWith('/')) return { kind: 'send', prompt, command: null, problems: [] };
  const { commands, problems } = loadCustomCommands(folders);
  let r: SlashPrompt;
  try {
    r = resolveSlashPrompt(prompt, commands);
  } catch (error) {
    if (error instanceof CommandTooLongError) return { kind: 'error', message: error.message, problems };
    throw error;
  }
  switch (r.kind) {
    case 'plain':
      return { kind: 'send', prompt, command: null, problems };
    case 'custom':
      return { kind: 'send', prompt: r.prompt, command: r.command, problems };
    case 'unknown':
      return { kind: 'error', message: `Unknown slash command: /${r.name}`, problems };
    case 'builtin': {
      const info = BUILTIN_COMMANDS.find((c) => c.name === r.name);
      if (info?.printMode === true) return { kind: 'send', prompt, command: null, problems };
      return {
        kind: 'error',
        message:
          where === 'print'
            ? `/${r.name} is not available in -p: it works in the app's message box.`
            : `/${r.name} is handled by the window, not sent to the model.`,
        problems,
      };
    }
  }
}
