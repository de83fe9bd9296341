/** A small, strict argument parser: unknown flags are errors, not silently ignored. */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'desktop' }
  | { kind: 'serve'; port: number | null; host: string; project: string | null }
  | { kind: 'scripted-api'; scenario: string; port: number }
  | { kind: 'print'; argv: string[] };

export const USAGE = `Usage:
  carapace                         open the desktop app (serve mode where Electron is missing)
  carapace serve [--port N] [--host 127.0.0.1] [--project DIR]
                                   serve the workspace to a browser (--port 0 picks a free port)
  carapace -p PROMPT [--output-format text|json|stream-json] [--model M] [--fallback-model M]
           [--max-turns N] [--permission-mode MODE] [--allowedTools LIST] [--disallowedTools LIST]
           [--resume ID | --continue] [--append-system-prompt TEXT] [--verbose]
                                   run one headless turn in this folder and print the result
  carapace scripted-api --scenario FILE [--port N]
                                   run the scripted Messages API (for tests and demos)
  carapace --help | --version`;

function takeValue(args: readonly string[], i: number, flag: string): string {
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value.`);
  return value;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, not "${text}".`);
  return port;
}

/** Splits `--flag value` and `--flag=value` pairs; unknown flags are the caller's to refuse. */
function flagPairs(args: readonly string[]): [string, () => string][] {
  const pairs: [string, () => string][] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] ?? '';
    const eq = flag.startsWith('--') ? flag.indexOf('=') : -1;
    if (eq > 0) {
      const value = flag.slice(eq + 1);
      pairs.push([flag.slice(0, eq), () => value]);
    } else {
      const at = i;
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('--')) i++;
      pairs.push([flag, () => takeValue(args, at, flag)]);
    }
  }
  return pairs;
}

function parseScriptedApi(args: readonly string[]): Command {
  let scenario: string | null = null;
  let port = 0;
  for (const [name, value] of flagPairs(args)) {
    if (name === '--scenario') scenario = value();
    else if (name === '--port') port = parsePort(value());
    else throw new UsageError(`Unknown option "${name}" for scripted-api.`);
  }
  if (scenario === null) throw new UsageError('scripted-api needs --scenario FILE.');
  return { kind: 'scripted-api', scenario, port };
}

export function parseArgs(argv: readonly string[]): Command {
  const args = [...argv];
  if (args.length === 0 || args[0] === 'desktop') return { kind: 'desktop' };
  if (args.includes('-p') || args.includes('--print')) return { kind: 'print', argv: args };
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  if (args.includes('--version') || args.includes('-v')) return { kind: 'version' };
  if (args[0] === 'scripted-api') return parseScriptedApi(args.slice(1));
  if (args[0] !== 'serve') throw new UsageError(`Unknown command "${args[0] ?? ''}".`);
  const command: Extract<Command, { kind: 'serve' }> = {
    kind: 'serve',
    port: null,
    host: '127.0.0.1',
    project: null,
  };
  for (const [name, value] of flagPairs(args.slice(1))) {
    if (name === '--port') command.port = parsePort(value());
    else if (name === '--host') command.host = value();
    else if (name === '--project') command.project = value();
    else throw new UsageError(`Unknown option "${name}" for serve.`);
  }
  return command;
}
