import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';

/** A command-line mistake, said in words; the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/**
 * Node's own parser (`util.parseArgs`), strict: unknown flags, missing values and stray arguments
 * are errors, never silently ignored. Its errors are rephrased as {@link UsageError}s naming the
 * flag as typed and the command it was given to. The tokens come in command-line order.
 */
export function parseStrict<T extends OptionSpecs>(
  args: readonly string[],
  options: T,
  o: { command: string; positionals: boolean },
) {
  try {
    return parseNodeArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: o.positionals,
      tokens: true,
    });
  } catch (error) {
    if (!(error instanceof Error) || !('code' in error) || !String(error.code).startsWith('ERR_PARSE_ARGS'))
      throw error;
    throw explain(args, options, o) ?? new UsageError(error.message);
  }
}

/** Finds what the strict parse refused by reading the same arguments leniently. */
function explain(
  args: readonly string[],
  options: OptionSpecs,
  o: { command: string; positionals: boolean },
): UsageError | null {
  const { tokens } = parseNodeArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!o.positionals) return new UsageError(`Unexpected argument "${token.value}" for ${o.command}.`);
      continue;
    }
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (spec === undefined) return new UsageError(`Unknown option "${token.rawName}" for ${o.command}.`);
    if (spec.type === 'boolean' && token.value !== undefined)
      return new UsageError(`${token.rawName} takes no value.`);
    if (spec.type === 'string' && token.value === undefined)
      return new UsageError(`${token.rawName} needs a value.`);
    if (spec.type === 'string' && !token.inlineValue && token.value?.startsWith('-'))
      return new UsageError(
        `${token.rawName} needs a value (for one starting with "-", write ${token.rawName}=${token.value}).`,
      );
  }
  return null;
}
