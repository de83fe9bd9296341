import { realpathSync } from 'node:fs';
import path from 'node:path';
import { describeState, pluginPlace, pluginStates } from '../harness/plugins/enabled-state';
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

export const PLUGIN_USAGE = `carapace plugin list [--json] | install FOLDER | enable NAME | disable NAME | uninstall NAME [--keep-data]`;

/**
 * `carapace plugin …`: installs a plugin from a local folder (Claude Code's layout) and switches it on
 * and off, in the same list the app and `-p` read. A refused install (no manifest, a broken one, a
 * taken name) is exit 1 with the reason; a malformed command line is a UsageError (exit 2).
 */
export function runPlugin(argv: readonly string[], io: PluginIo): number {
  const { values, positionals } = parseStrict(
    argv,
    { json: { type: 'boolean' }, 'keep-data': { type: 'boolean' } },
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
        // On or off as a run here decides it: the settings' enabledPlugins of this folder (as far as
        // its trust goes), the user's and the policy's, else the switch.
        let root: string;
        try {
          root = realpathSync(io.cwd);
        } catch {
          root = io.cwd;
        }
        const { states } = pluginStates(pluginPlace(home, root, io.env), plugins);
        const shown = plugins.map((p) => {
          const state = states.get(p.name);
          return { ...p, enabled: state?.enabled ?? p.enabled, switch: p.enabled, state: state ?? null };
        });
        if (values.json === true) io.stdout.write(`${jsonTerminalSafe(JSON.stringify(shown))}\n`);
        else if (plugins.length === 0)
          line('No plugins installed. Install one with: carapace plugin install FOLDER');
        else
          for (const p of shown)
            line(
              `${p.name}  ${p.enabled ? 'enabled' : 'disabled'}  ${p.source ?? p.folder}${p.state && p.state.source !== 'carapace' ? `  (${describeState(p.state, root)})` : ''}`,
            );
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
        // A settings file's enabledPlugins outranks the switch: say so rather than look obeyed.
        const root = path.resolve(io.cwd);
        const state = pluginStates(pluginPlace(home, root, io.env), [p]).states.get(p.name);
        if (state && state.source !== 'carapace' && state.enabled !== p.enabled)
          line(`Note: here it stays ${state.enabled ? 'on' : 'off'}: ${describeState(state, root)}.`);
        return 0;
      }
      case 'uninstall': {
        if (arg === undefined) throw new UsageError(`plugin uninstall needs a NAME. Usage: ${PLUGIN_USAGE}`);
        const keepData = values['keep-data'] === true;
        uninstallPlugin(home, arg, { keepData });
        line(
          `Uninstalled ${arg} (its copy ${keepData ? 'is removed, its data folder kept' : 'and its data folder are removed'}; the folder it came from is left as it was).`,
        );
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
