import { isBuiltinCommand } from '@shared/ipc/contract/commands';
import { expandCommand, parseInvocation } from './expand';
import type { CustomCommand } from './types';

export type SlashPrompt =
  /** Not a command: sent as it is. */
  | { kind: 'plain' }
  /** A built-in (`/compact`, `/cost`, …): the caller handles it. */
  | { kind: 'builtin'; name: string; args: string }
  /** A custom command: `prompt` is its body with the arguments put in. */
  | { kind: 'custom'; command: CustomCommand; args: string; prompt: string }
  | { kind: 'unknown'; name: string };

/**
 * What a prompt asks for: a built-in wins over a custom command of the same name (as in Claude
 * Code), then the custom commands by their full name (`frontend:component`).
 */
export function resolveSlashPrompt(prompt: string, commands: readonly CustomCommand[]): SlashPrompt {
  const call = parseInvocation(prompt);
  if (!call) return { kind: 'plain' };
  if (isBuiltinCommand(call.name)) return { kind: 'builtin', name: call.name, args: call.args };
  const command = commands.find((c) => c.name === call.name);
  if (!command) return { kind: 'unknown', name: call.name };
  return { kind: 'custom', command, args: call.args, prompt: expandCommand(command, call.args) };
}
