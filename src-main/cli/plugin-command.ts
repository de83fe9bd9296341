import path from 'node:path';
import {
  installPlugin,
  listPlugins,
  PluginError,
  setPluginEnabled,
  uninstallPlugin,
} from '../harness/plugins/registry';
import { carapaceHome } from '../platform/paths';
import { parseStrict, UsageError } from './strict-options';
import { jsonTerminalSafe, terminalSafe } from './terminal-text';

export interface PluginIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const PLUGIN_USAGE = `carapace plugin list [--json] | install FOLDER | enable NAME | disable NAME | uninstall NAME`;

/**
 * `carapace plugin …`: installs a plugin from a local folder (Claude Code's layout) and switches it on
 * and off, in the same list the app and `-p` read. A refused install (no manifest, a broken one, a
 * taken name) is exit 1 with the reason; a malformed command line is a UsageError (exit 2).
 */
export function runPlugin(argv: readonly string[], io: PluginIo): number {
  const { values, positionals } = parseStrict(
    argv,
    { json: { type: 'boolean' } },
    { command: 'plugin', positionals: true },
  );
  const [verb, arg, ...rest] = positionals;
  if (rest.length > 0)
    throw new UsageError(`plugin ${verb ?? ''} takes one argument. Usage: ${PLUGIN_USAGE}`);
  const home = carapaceHome(io.env);
  const line = (text: string) => io.stdout.write(`${terminalSafe(text)}\n`);
  try {
    switch (verb) {
      case undefined:
      case 'list': {
        const { plugins, problem } = listPlugins(home);
        if (problem !== null) {
          io.stderr.write(`carapace: ${terminalSafe(problem)}\n`);
          return 1;
        }
        if (values.json === true) io.stdout.write(`${jsonTerminalSafe(JSON.stringify(plugins))}\n`);
        else if (plugins.length === 0)
          line('No plugins installed. Install one with: carapace plugin install FOLDER');
        else
          for (const p of plugins)
            line(`${p.name}  ${p.enabled ? 'enabled' : 'disabled'}  ${p.source ?? p.folder}`);
        return 0;
      }
      case 'install': {
        if (arg === undefined) throw new UsageError(`plugin install needs a FOLDER. Usage: ${PLUGIN_USAGE}`);
        const p = installPlugin(home, path.resolve(io.cwd, arg));
        line(`Installed ${p.name} from ${p.source ?? p.folder} (enabled).`);
        return 0;
      }
      case 'enable':
      case 'disable': {
        if (arg === undefined) throw new UsageError(`plugin ${verb} needs a NAME. Usage: ${PLUGIN_USAGE}`);
        const p = setPluginEnabled(home, arg, verb === 'enable');
        line(`${p.name} is ${p.enabled ? 'enabled' : 'disabled'}.`);
        return 0;
      }
      case 'uninstall': {
        if (arg === undefined) throw new UsageError(`plugin uninstall needs a NAME. Usage: ${PLUGIN_USAGE}`);
        uninstallPlugin(home, arg);
        line(`Uninstalled ${arg} (its copy is removed; the folder it came from is left as it was).`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown plugin command "${verb}". Usage: ${PLUGIN_USAGE}`);
    }
  } catch (error) {
    if (!(error instanceof PluginError)) throw error;
    io.stderr.write(`carapace: ${terminalSafe(error.message)}\n`);
    return 1;
  }
}
