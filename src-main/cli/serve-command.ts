import { existsSync } from 'node:fs';
import path from 'node:path';
import { createCarapace } from '../compose';
import { describeError, errnoCode } from '../platform/errors';
import { createConsoleLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { startServe } from '../server/serve';
import { UsageError } from './args';

export const DEFAULT_PORT = 4517;

export interface ServeCommandOptions {
  port: number | null;
  host: string;
  project: string | null;
  version: string;
  /** When the default port is taken, use a free one instead of failing (the `npm start` fallback). */
  portFallback?: boolean;
  /** The built renderer (out/renderer). */
  rendererDir: string;
}

/** Runs serve mode until SIGINT/SIGTERM; prints exactly one line to stdout: the URL. */
export async function runServe(options: ServeCommandOptions): Promise<void> {
  const logger = createConsoleLogger('carapace serve');
  const dir = options.rendererDir;
  if (!existsSync(path.join(dir, 'index.html'))) {
    throw new UsageError(`The renderer is not built (${dir} is missing); run "npm run build" first.`);
  }
  const carapace = createCarapace({
    env: process.env,
    secrets: new MemorySecretStore(),
    logger,
    version: options.version,
  });
  if (options.project !== null) carapace.services.workspace.open(path.resolve(options.project));

  const start = (port: number) =>
    startServe({ carapace, rendererDir: dir, port, host: options.host, logger });
  let handle;
  try {
    handle = await start(options.port ?? DEFAULT_PORT);
  } catch (error) {
    if (errnoCode(error) === 'EADDRINUSE' && options.port === null && options.portFallback)
      handle = await start(0);
    else if (errnoCode(error) === 'EADDRINUSE')
      throw new UsageError(`Port ${options.port ?? DEFAULT_PORT} is in use; pass --port 0 for a free one.`);
    else throw new UsageError(`Cannot listen on ${options.host}: ${describeError(error)}`);
  }
  console.log(`Carapace serving ${handle.url}`);

  await new Promise<void>((resolve) => {
    let closing = false;
    const stop = (signal: string) => {
      if (closing) {
        logger.warn(`${signal} again: exiting without waiting.`);
        process.exit(1);
      }
      closing = true;
      logger.info(`${signal}: shutting down…`);
      handle.close().then(resolve, (error: unknown) => {
        logger.error(`Shutdown failed: ${describeError(error)}`);
        resolve();
      });
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}
