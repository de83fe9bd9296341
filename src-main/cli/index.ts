import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json';
import { describeError } from '../platform/errors';
import { parseArgs, USAGE, UsageError } from './args';
import { findElectron, hasDisplay, tryDownloadElectron } from './electron-binary';

// Commands load their modules when run (the SDK, zod schemas, the server…), so `--version`, `--help`
// and a bad argument answer at once, and each command pays only for what it uses.
const loadServe = () => import('./serve-command');

/** This file is out/main/cli.js: the renderer build sits beside out/main. */
const RENDERER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../renderer');

/** `carapace` with no command: the desktop app, or serve mode where Electron cannot run. */
async function runDesktop(): Promise<number> {
  let electron = findElectron();
  let prefix = 'Carapace: ';
  if (!electron.ok && hasDisplay()) {
    // One line either way: the progress, then how it ended.
    process.stderr.write("Carapace: fetching Electron's binary (first run)… ");
    electron = tryDownloadElectron();
    if (electron.ok) process.stderr.write('done.\n');
    prefix = '';
  }
  const reason = !electron.ok
    ? electron.reason
    : !hasDisplay()
      ? 'there is no display (DISPLAY is unset)'
      : null;
  if (reason !== null || !electron.ok) {
    console.error(
      `${prefix}${reason ?? 'Electron is unavailable'}; starting serve mode instead — open the URL below in a browser.`,
    );
    await (
      await loadServe()
    ).runServe({
      port: null,
      host: '127.0.0.1',
      project: null,
      version: pkg.version,
      portFallback: true,
      rendererDir: RENDERER_DIR,
    });
    return 0;
  }
  const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const child = spawn(electron.binary, [appRoot], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

async function main(argv: string[]): Promise<number> {
  const command = parseArgs(argv);
  switch (command.kind) {
    case 'help':
      console.log(USAGE);
      return 0;
    case 'version':
      console.log(pkg.version);
      return 0;
    case 'serve':
      await (await loadServe()).runServe({ ...command, version: pkg.version, rendererDir: RENDERER_DIR });
      return 0;
    case 'desktop':
      return runDesktop();
    case 'print': {
      const [{ parsePrintArgs }, { runPrint }] = await Promise.all([
        import('./print-args'),
        import('./print-command'),
      ]);
      return runPrint(parsePrintArgs(command.argv), {
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
        env: process.env,
        cwd: process.cwd(),
      });
    }
    case 'usage': {
      const [{ parseUsageArgs }, { runUsage }] = await Promise.all([
        import('./usage-args'),
        import('./usage-command'),
      ]);
      return runUsage(parseUsageArgs(command.argv), {
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        cwd: process.cwd(),
      });
    }
    case 'plugin': {
      const { runPlugin } = await import('./plugin-command');
      return runPlugin(command.argv, {
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        cwd: process.cwd(),
      });
    }
    case 'scripted-api': {
      const [{ loadScenarioFile }, { startScriptedApi }] = await Promise.all([
        import('../devtools/scripted-api/scenario'),
        import('../devtools/scripted-api/server'),
      ]);
      const api = await startScriptedApi({
        scenario: loadScenarioFile(command.scenario, (f) => readFileSync(f, 'utf8')),
        port: command.port,
      });
      console.log(`Scripted Messages API on ${api.url} (ANTHROPIC_BASE_URL=${api.url})`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await api.close();
      return 0;
    }
  }
}

/** Exits once stdout and stderr have flushed: a pipe reader must get the whole result line. */
function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(
  (code) => exitAfterFlush(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`carapace: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`carapace: ${describeError(error)}`);
    process.exit(1);
  },
);
