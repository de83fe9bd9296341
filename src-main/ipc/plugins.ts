import path from 'node:path';
import type { PluginsView } from '@shared/ipc/contract/plugins';
import {
  installPlugin,
  listPlugins,
  PluginError,
  readManifest,
  setPluginEnabled,
  uninstallPlugin,
} from '../harness/plugins/registry';
import { AppError } from '../platform/errors';
import type { HandlerMap } from './router';
import type { Services } from './services';

type PluginChannels = Extract<keyof HandlerMap, `plugins.${string}`>;

/** Every installed plugin with what its plugin.json says now (or why it cannot be read). */
export function pluginsView(carapaceHome: string): PluginsView {
  const { plugins, problem } = listPlugins(carapaceHome);
  return {
    problem,
    plugins: plugins.map((p) => {
      try {
        const m = readManifest(p.folder);
        return {
          name: p.name,
          version: m.version,
          description: m.description,
          folder: p.folder,
          source: p.source ?? null,
          enabled: p.enabled,
          problem: m.name === p.name ? null : `Its plugin.json now names it "${m.name}"; install it again.`,
        };
      } catch (error) {
        return {
          name: p.name,
          version: null,
          description: null,
          folder: p.folder,
          source: p.source ?? null,
          enabled: p.enabled,
          problem: (error as Error).message,
        };
      }
    }),
  };
}

/** A plugin error in the contract's words: what the person can fix is INVALID_INPUT or NOT_FOUND. */
function mapped<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof PluginError)) throw error;
    const code =
      error.code === 'NOT_INSTALLED'
        ? 'NOT_FOUND'
        : error.code === 'NAME_TAKEN'
          ? 'CONFLICT'
          : error.code === 'REGISTRY_UNREADABLE'
            ? 'CORRUPT_DATA'
            : 'INVALID_INPUT';
    throw new AppError(code, error.message, { cause: error });
  }
}

/**
 * Settings → Plugins. A plugin is installed from a local folder given by path (typed, or from the
 * desktop app's folder picker); the list lives in Carapace's own folder, never in a project.
 */
export function pluginHandlers(s: Services): Pick<HandlerMap, PluginChannels> {
  return {
    'plugins.list': () => pluginsView(s.carapaceHome),
    'plugins.install': ({ folder }) => {
      if (!path.isAbsolute(folder)) throw new AppError('INVALID_INPUT', 'Give the folder as a full path.');
      mapped(() => installPlugin(s.carapaceHome, folder));
      return pluginsView(s.carapaceHome);
    },
    'plugins.setEnabled': ({ name, enabled }) => {
      mapped(() => setPluginEnabled(s.carapaceHome, name, enabled));
      return pluginsView(s.carapaceHome);
    },
    'plugins.remove': ({ name }) => {
      mapped(() => uninstallPlugin(s.carapaceHome, name));
      return pluginsView(s.carapaceHome);
    },
  };
}
