export interface Logger {
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

/** Logs to stderr so stdout stays clean for `carapace -p` output and the serve URL line. */
export function createConsoleLogger(prefix = 'carapace', quiet = false): Logger {
  const write = (level: string, message: string, rest: unknown[]) => {
    if (quiet && level === 'info') return;
    console.error(`[${prefix}] ${level}: ${message}`, ...rest);
  };
  return {
    info: (m, ...r) => write('info', m, r),
    warn: (m, ...r) => write('warn', m, r),
    error: (m, ...r) => write('error', m, r),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
