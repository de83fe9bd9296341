/**
 * Command-line options read the way getopt/getopt_long reads them, so the read-only allowlist and the
 * path rules see what the program will see: short options bundle and take attached values
 * (`-uo./out` is `-u -o ./out`), long options take `=value` or the next word and may be abbreviated
 * (`--outp=x` is `--output=x`), `--` ends the options and a lone `-` is an operand (stdin).
 */

export interface OptionSpec {
  /** Short option letters that take a value, attached (`-k2`) or as the next word (`-k 2`). */
  shortValues?: string;
  /** Long options (`--key`) that take a value after `=` or as the next word. */
  longValues?: readonly string[];
}

export type Token =
  | { kind: 'short'; flag: string; value?: string }
  | { kind: 'long'; flag: string; value?: string }
  | { kind: 'operand'; word: string };

/**
 * True when `written` (a long option as typed, before any `=`) names `option`: the same, or an
 * abbreviation of it, as getopt_long accepts (it refuses ambiguous ones, so a program never runs
 * with an abbreviation that could mean two options).
 */
export function namesLong(written: string, option: string): boolean {
  return written.length > 2 && option.startsWith(written);
}

/**
 * Splits arguments into options and operands. An option not in the spec is taken to have no value,
 * so its next word counts as an operand: the cautious reading when the caller judges operands.
 */
export function parseOptions(args: readonly string[], spec: OptionSpec = {}): Token[] {
  const out: Token[] = [];
  const longValues = spec.longValues ?? [];
  const shortValues = spec.shortValues ?? '';
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') {
      for (const rest of args.slice(i + 1)) out.push({ kind: 'operand', word: rest });
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq >= 0) {
        out.push({ kind: 'long', flag: a.slice(0, eq), value: a.slice(eq + 1) });
        continue;
      }
      const takes = longValues.some((l) => l === a) || longValues.some((l) => namesLong(a, l));
      if (takes && i + 1 < args.length) out.push({ kind: 'long', flag: a, value: args[++i] ?? '' });
      else out.push({ kind: 'long', flag: a });
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j] ?? '';
        if (shortValues.includes(ch)) {
          const attached = a.slice(j + 1);
          if (attached !== '') out.push({ kind: 'short', flag: `-${ch}`, value: attached });
          else if (i + 1 < args.length) out.push({ kind: 'short', flag: `-${ch}`, value: args[++i] ?? '' });
          else out.push({ kind: 'short', flag: `-${ch}` });
          break;
        }
        out.push({ kind: 'short', flag: `-${ch}` });
      }
      continue;
    }
    out.push({ kind: 'operand', word: a });
  }
  return out;
}

/** The operands only. */
export function operands(tokens: readonly Token[]): string[] {
  return tokens.flatMap((t) => (t.kind === 'operand' ? [t.word] : []));
}
