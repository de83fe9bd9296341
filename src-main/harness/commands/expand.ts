import type { CustomCommand } from './types';

/** `/name args…`: a name a person can type (namespaces with `:`), then a space or the end. */
const INVOCATION = /^\/([A-Za-z0-9_][A-Za-z0-9_.:-]{0,200})(?:[ \t\n]+([\s\S]*))?$/;

/**
 * The command a prompt invokes: its name and the text after it, or null when the prompt is not a
 * command (it does not start with `/`, or what follows is a path such as `/usr/bin/env`).
 */
export function parseInvocation(prompt: string): { name: string; args: string } | null {
  const m = INVOCATION.exec(prompt.trim());
  if (!m?.[1]) return null;
  return { name: m[1], args: (m[2] ?? '').trim() };
}

/**
 * The arguments one by one, split at spaces; "double" or 'single' quotes keep spaces inside one
 * argument. Nothing else is interpreted: no variables, no globs, no escapes beyond the quotes.
 */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m !== null; m = re.exec(args)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/**
 * The longest prompt a command may expand to: more than a model's whole context window holds. A body
 * of thousands of `$ARGUMENTS` (a repository's command file) times a pasted argument would otherwise
 * be built in full, gigabytes of it, before anything could refuse it.
 */
export const MAX_COMMAND_PROMPT_CHARS = 1_000_000;

/** A command whose prompt would be longer than MAX_COMMAND_PROMPT_CHARS. */
export class CommandTooLongError extends Error {
  constructor(readonly commandName: string) {
    super(
      `/${commandName} would send a prompt longer than ${MAX_COMMAND_PROMPT_CHARS.toLocaleString('en-US')} characters (its file repeats the arguments, or they are very long); it was not sent`,
    );
    this.name = 'CommandTooLongError';
  }
}

const PLACEHOLDER = /\$ARGUMENTS\[(\d{1,3})\]|\$ARGUMENTS|\$(\d{1,2})(?!\d)/g;

/**
 * The prompt a command sends: its body with `$ARGUMENTS` (everything after the name),
 * `$ARGUMENTS[0]`… (one argument, from 0) and `$1`… (one argument, from 1, as Claude Code's
 * commands write them) put in. One pass over the body: text that comes in with the arguments is
 * never looked at again, so `$1` or `!`cmd`` typed as an argument stays plain text. A body without
 * any placeholder gets the arguments appended (`ARGUMENTS: …`), as Claude Code does, so they are
 * not lost. Shell-style `!`command`` lines in a body are not run: they reach the model as written.
 */
export function expandCommand(command: Pick<CustomCommand, 'body' | 'name'>, args: string): string {
  const positional = splitArguments(args);
  const seen = { placeholder: false };
  // Counted as it goes, so the refusal comes before the string is built.
  let length = command.body.length;
  const put = (whole: string, value: string) => {
    length += value.length - whole.length;
    if (length > MAX_COMMAND_PROMPT_CHARS) throw new CommandTooLongError(command.name);
    return value;
  };
  const text = command.body.replace(
    PLACEHOLDER,
    (all: string, index: string | undefined, n: string | undefined) => {
      seen.placeholder = true;
      if (index !== undefined) return put(all, positional[Number(index)] ?? '');
      if (n !== undefined) return put(all, Number(n) === 0 ? '$0' : (positional[Number(n) - 1] ?? ''));
      return put(all, args);
    },
  );
  if (!seen.placeholder && args !== '') {
    put('', `\n\nARGUMENTS: ${args}`);
    return `${text}\n\nARGUMENTS: ${args}`;
  }
  return text;
}
