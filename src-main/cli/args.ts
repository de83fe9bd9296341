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
  | { kind: 'serve'; port: number | null; host: string; project: string | null };

export const USAGE = `Usage:
  carapace                         open the desktop app (serve mode where Electron is missing)
  carapace serve [--port N] [--host 127.0.0.1] [--project DIR]
                                   serve the workspace to a browser (--port 0 picks a free port)
  carapace --help | --version`;

function takeValue(args: string[], i: number, flag: string): string {
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

export function parseArgs(argv: readonly string[]): Command {
  const args = [...argv];
  if (args.length === 0 || args[0] === 'desktop') return { kind: 'desktop' };
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  if (args.includes('--version') || args.includes('-v')) return { kind: 'version' };
  if (args[0] !== 'serve') throw new UsageError(`Unknown command "${args[0] ?? ''}".`);
  const command: Extract<Command, { kind: 'serve' }> = {
    kind: 'serve',
    port: null,
    host: '127.0.0.1',
    project: null,
  };
  for (let i = 1; i < args.length; i++) {
    const flag = args[i] ?? '';
    const [name, inline] =
      flag.startsWith('--') && flag.includes('=')
        ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)]
        : [flag, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = takeValue(args, i, name);
      i++;
      return v;
    };
    if (name === '--port') command.port = parsePort(value());
    else if (name === '--host') command.host = value();
    else if (name === '--project') command.project = value();
    else throw new UsageError(`Unknown option "${flag}" for serve.`);
  }
  return command;
}
