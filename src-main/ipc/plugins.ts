import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PluginsView, PluginView } from '@shared/ipc/contract/plugins';
import { describeState, pluginStates, type PluginPlace } from '../harness/plugins/enabled-state';
import {
  installPlugin,
  listPlugins,
  pluginDataDir,
  PluginError,
  readManifest,
  setPluginEnabled,
  uninstallPlugin,
} from '../harness/plugins/registry';
import { AppError } from '../platform/errors';
import type { HandlerMap } from './router';
import type { Services } from './services';

type PluginChannels = Extract<keyof HandlerMap, `plugins.${string}`>;

/**
 * Every installed plugin with what its plugin.json says now (or why it cannot be read), and whether it
 * is on where `place` says (a project's settings and trust, or Carapace's folder alone) and why.
 */
export function pluginsView(place: PluginPlace): PluginsView {
  const carapaceHome = typeof place === 'string' ? place : place.home;
  const projectRoot = typeof place === 'string' ? null : place.projectRoot;
  const { plugins, problem } = listPlugins(carapaceHome);
  const { states } = pluginStates(place, plugins);
  return {
    problem,
    plugins: plugins.map((p) => {
      const s = states.get(p.name);
      const data = pluginDataDir(carapaceHome, p.name);
      const common: Omit<PluginView, 'version' | 'description' | 'problem'> = {
        name: p.name,
        folder: p.folder,
        source: p.source ?? null,
        enabled: p.enabled,
        state: s
          ? {
              enabled: s.enabled,
              source: s.source,
              file: s.file,
              note:
                s.source === 'carapace' && s.untrusted.length === 0 ? null : describeState(s, projectRoot),
            }
          : { enabled: p.enabled, source: 'carapace', file: null, note: null },
        dataFolder: existsSync(data) ? data : null,
      };
      try {
        const m = readManifest(p.folder);
        return {
          ...common,
          version: m.version,
          description: m.description,
          problem: m.name === p.name ? null : `Its plugin.json now names it "${m.name}"; install it again.`,
        };
      } catch (error) {
        return { ...common, version: null, description: null, problem: (error as Error).message };
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
  // The open project (by id, never a path sent in): its settings and trust join the states.
  const view = (projectId: string | undefined) =>
    pluginsView(
      projectId === undefined
        ? s.carapaceHome
        : s.permissionLocations(s.workspace.snapshot(projectId).project.path),
    );
  return {
    'plugins.list': ({ projectId }) => view(projectId),
    'plugins.install': ({ folder, projectId }) => {
      if (!path.isAbsolute(folder)) throw new AppError('INVALID_INPUT', 'Give the folder as a full path.');
      mapped(() => installPlugin(s.carapaceHome, folder));
      return view(projectId);
    },
    'plugins.setEnabled': ({ name, enabled, projectId }) => {
      mapped(() => setPluginEnabled(s.carapaceHome, name, enabled));
      return view(projectId);
    },
    'plugins.remove': ({ name, keepData, projectId }) => {
      mapped(() => uninstallPlugin(s.carapaceHome, name, { keepData: keepData === true }));
      return view(projectId);
    },
  };
}
