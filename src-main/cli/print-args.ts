import { PermissionMode } from '@shared/domain/permissions';
import { parseStrict, UsageError, type OptionSpecs } from './strict-options';

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
  /** Stop before the next model call once this run has spent this much (USD). */
  maxBudgetUsd: number | null;
  /** `--mcp-config`, repeatable: a file or JSON text each. */
  mcpConfigs: string[];
  /** `--strict-mcp-config`: only the servers of --mcp-config. */
  strictMcpConfig: boolean;
}

/** The flags `-p` takes, in node's parseArgs terms; both spellings of the tool lists, as claude. */
const PRINT_OPTIONS = {
  print: { type: 'boolean', short: 'p' },
  'output-format': { type: 'string' },
  model: { type: 'string' },
  'fallback-model': { type: 'string' },
  'max-turns': { type: 'string' },
  'permission-mode': { type: 'string' },
  allowedTools: { type: 'string', multiple: true },
  'allowed-tools': { type: 'string', multiple: true },
  disallowedTools: { type: 'string', multiple: true },
  'disallowed-tools': { type: 'string', multiple: true },
  resume: { type: 'string', short: 'r' },
  continue: { type: 'boolean', short: 'c' },
  'append-system-prompt': { type: 'string' },
  verbose: { type: 'boolean' },
  'token-budget': { type: 'string' },
  coordinator: { type: 'boolean' },
  'max-budget-usd': { type: 'string' },
  'mcp-config': { type: 'string', multiple: true },
  'strict-mcp-config': { type: 'boolean' },
} as const satisfies OptionSpecs;

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
    maxBudgetUsd: null,
    mcpConfigs: [],
    strictMcpConfig: false,
  };
  const { tokens } = parseStrict(argv, PRINT_OPTIONS, { command: '-p', positionals: true });
  const positional: string[] = [];
  // In command-line order, so repeated tool lists keep their order across both spellings.
  for (const token of tokens) {
    if (token.kind === 'positional') positional.push(token.value);
    if (token.kind !== 'option') continue;
    const flag = token.rawName;
    const value = token.value ?? '';
    switch (token.name) {
      case 'coordinator':
        o.coordinator = true;
        break;
      case 'mcp-config':
        o.mcpConfigs.push(value);
        break;
      case 'strict-mcp-config':
        o.strictMcpConfig = true;
        break;
      case 'verbose':
        o.verbose = true;
        break;
      case 'continue':
        o.continue = true;
        break;
      case 'output-format':
        if (value !== 'text' && value !== 'json' && value !== 'stream-json')
          throw new UsageError(`--output-format must be text, json or stream-json, not "${value}".`);
        o.outputFormat = value;
        break;
      case 'model':
        o.model = value;
        break;
      case 'fallback-model':
        o.fallbackModel = value;
        break;
      case 'max-turns':
        o.maxTurns = positiveInt(flag, value);
        break;
      case 'max-budget-usd': {
        // Plain decimals only: Number() also takes 0x10 ($16), 0b11, 1e3 and ' 2 ', which no one
        // means as an amount; below a micro-dollar the limit would round to $0.
        const usd = Number(value);
        if (!/^\d+(\.\d+)?$/.test(value) || usd < 0.000001 || usd > 1_000_000)
          throw new UsageError(
            `--max-budget-usd must be an amount in USD above 0, such as 0.50, not "${value}".`,
          );
        o.maxBudgetUsd = usd;
        break;
      }
      case 'permission-mode': {
        const mode = PermissionMode.safeParse(value);
        if (!mode.success)
          throw new UsageError(
            `--permission-mode must be one of ${PermissionMode.options.join(', ')}, not "${value}".`,
          );
        o.permissionMode = mode.data;
        break;
      }
      case 'allowedTools':
      case 'allowed-tools':
        o.allowedTools.push(...toolList(value));
        break;
      case 'disallowedTools':
      case 'disallowed-tools':
        o.disallowedTools.push(...toolList(value));
        break;
      case 'resume':
        o.resume = value;
        break;
      case 'append-system-prompt':
        o.appendSystemPrompt = value;
        break;
      case 'token-budget':
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
