import { parseStrict, UsageError } from './strict-options';

/** The carapace command line: which command, and its flags (node's strict parseArgs). */
export { UsageError };

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'desktop' }
  | { kind: 'serve'; port: number | null; host: string; project: string | null }
  | { kind: 'scripted-api'; scenario: string; port: number }
  | { kind: 'print'; argv: string[] }
  | { kind: 'usage'; argv: string[] }
  | { kind: 'plugin'; argv: string[] };

export const USAGE = `Usage:
  carapace                         open the desktop app (serve mode where Electron is missing)
  carapace serve [--port N] [--host 127.0.0.1] [--project DIR]
                                   serve the workspace to a browser (--port 0 picks a free port)
  carapace -p PROMPT [--output-format text|json|stream-json] [--model M] [--fallback-model M]
           [--max-turns N] [--permission-mode MODE] [--allowedTools LIST] [--disallowedTools LIST]
           [--resume ID | --continue] [--append-system-prompt TEXT] [--token-budget N]
           [--coordinator] [--verbose] [--mcp-config FILE|JSON]... [--strict-mcp-config]
                                   run one headless turn in this folder and print the result
  carapace usage [daily|monthly|session] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--json]
           [--project DIR] [--source carapace|claude-code|all]
                                   print spend and tokens (the cost dashboard's figures)
  carapace plugin list [--json] | install FOLDER | enable NAME | disable NAME | uninstall NAME
                                   install a plugin from a local folder, switch plugins on and off
  carapace scripted-api --scenario FILE [--port N]
                                   run the scripted Messages API (for tests and demos)
  carapace --help | --version`;

function parsePort(text: string): number {
  const port = Number(text);
  if (text.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, not "${text}".`);
  return port;
}

function parseScriptedApi(args: readonly string[]): Command {
  const { values } = parseStrict(
    args,
    { scenario: { type: 'string' }, port: { type: 'string' } },
    { command: 'scripted-api', positionals: false },
  );
  if (values.scenario === undefined) throw new UsageError('scripted-api needs --scenario FILE.');
  return {
    kind: 'scripted-api',
    scenario: values.scenario,
    port: values.port === undefined ? 0 : parsePort(values.port),
  };
}

function parseServe(args: readonly string[]): Command {
  const { values } = parseStrict(
    args,
    { port: { type: 'string' }, host: { type: 'string' }, project: { type: 'string' } },
    { command: 'serve', positionals: false },
  );
  return {
    kind: 'serve',
    port: values.port === undefined ? null : parsePort(values.port),
    host: values.host ?? '127.0.0.1',
    project: values.project ?? null,
  };
}

/** Picks the command; `-p` hands its whole argument list to parsePrintArgs (loaded only then). */
export function parseArgs(argv: readonly string[]): Command {
  const args = [...argv];
  if (args.length === 0 || args[0] === 'desktop') return { kind: 'desktop' };
  if (args.includes('-p') || args.includes('--print')) return { kind: 'print', argv: args };
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  if (args.includes('--version') || args.includes('-v')) return { kind: 'version' };
  if (args[0] === 'scripted-api') return parseScriptedApi(args.slice(1));
  // Its own options are parsed by usage-args.ts, loaded only when it runs.
  if (args[0] === 'usage') return { kind: 'usage', argv: args.slice(1) };
  if (args[0] === 'plugin') return { kind: 'plugin', argv: args.slice(1) };
  if (args[0] === 'serve') return parseServe(args.slice(1));
  throw new UsageError(`Unknown command "${args[0] ?? ''}".`);
}
