import { PermissionMode } from '@shared/domain/permissions';
import { UsageError } from './args';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/** `carapace -p`: flag-compatible with `claude -p` for the flags Carapace supports. */
export interface PrintOptions {
  prompt: string | null;
  outputFormat: OutputFormat;
  model: string | null;
  fallbackModel: string | null;
  maxTurns: number | null;
  /** Null: the settings' `permissions.defaultMode`, else `default`. */
  permissionMode: PermissionMode | null;
  allowedTools: string[];
  disallowedTools: string[];
  resume: string | null;
  continue: boolean;
  appendSystemPrompt: string | null;
  verbose: boolean;
  tokenBudget: number | null;
  /** A coordinator session: the model leads a team of workers (new sessions only). */
  coordinator: boolean;
}

const VALUE_FLAGS = new Set([
  '--output-format',
  '--model',
  '--fallback-model',
  '--max-turns',
  '--permission-mode',
  '--allowedTools',
  '--allowed-tools',
  '--disallowedTools',
  '--disallowed-tools',
  '--resume',
  '-r',
  '--append-system-prompt',
  '--token-budget',
]);

function positiveInt(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive whole number, not "${text}".`);
  return n;
}

/** Tool lists come comma- or space-separated, as with claude: `--allowedTools "Read,Grep" Bash`. */
function toolList(text: string): string[] {
  return text.split(/[,\s]+/).filter(Boolean);
}

export function parsePrintArgs(argv: readonly string[]): PrintOptions {
  const o: PrintOptions = {
    prompt: null,
    outputFormat: 'text',
    model: null,
    fallbackModel: null,
    maxTurns: null,
    permissionMode: null,
    allowedTools: [],
    disallowedTools: [],
    resume: null,
    continue: false,
    appendSystemPrompt: null,
    verbose: false,
    tokenBudget: null,
    coordinator: false,
  };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] ?? '';
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    if (flag === '-p' || flag === '--print') continue;
    if (flag === '--coordinator') {
      o.coordinator = true;
      continue;
    }
    if (flag === '--verbose') {
      o.verbose = true;
      continue;
    }
    if (flag === '--continue' || flag === '-c') {
      o.continue = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) {
      if (flag.startsWith('-') && flag !== '-') throw new UsageError(`Unknown option "${flag}" for -p.`);
      positional.push(raw);
      continue;
    }
    let value: string;
    if (eq > 0) value = raw.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value.`);
      value = next;
      i++;
    }
    switch (flag) {
      case '--output-format':
        if (value !== 'text' && value !== 'json' && value !== 'stream-json')
          throw new UsageError(`--output-format must be text, json or stream-json, not "${value}".`);
        o.outputFormat = value;
        break;
      case '--model':
        o.model = value;
        break;
      case '--fallback-model':
        o.fallbackModel = value;
        break;
      case '--max-turns':
        o.maxTurns = positiveInt(flag, value);
        break;
      case '--permission-mode': {
        const mode = PermissionMode.safeParse(value);
        if (!mode.success)
          throw new UsageError(
            `--permission-mode must be one of ${PermissionMode.options.join(', ')}, not "${value}".`,
          );
        o.permissionMode = mode.data;
        break;
      }
      case '--allowedTools':
      case '--allowed-tools':
        o.allowedTools.push(...toolList(value));
        break;
      case '--disallowedTools':
      case '--disallowed-tools':
        o.disallowedTools.push(...toolList(value));
        break;
      case '--resume':
      case '-r':
        o.resume = value;
        break;
      case '--append-system-prompt':
        o.appendSystemPrompt = value;
        break;
      case '--token-budget':
        o.tokenBudget = positiveInt(flag, value);
        break;
    }
  }
  if (positional.length > 1)
    throw new UsageError(`-p takes one prompt (quote it); got ${positional.length} arguments.`);
  o.prompt = positional[0] ?? null;
  if (o.resume !== null && o.continue) throw new UsageError('Use --resume ID or --continue, not both.');
  return o;
}
