import path from 'node:path';
import { managedSettingsFile } from '../../platform/paths';
import { readSettingsFile } from '../permissions/settings-file';
import { settingsFiles, type SourceLocations } from '../permissions/settings-sources';
import { trustFile, TrustStore, trustKey } from '../permissions/trust';
import type { InstalledPlugin } from './registry';

/**
 * The marketplace part of a plugin Carapace installed from a local folder: in settings such a plugin
 * is `"<name>@local"` (Claude Code keys `enabledPlugins` by `name@marketplace`; Carapace installs from
 * folders only, so an entry naming any other marketplace is about a plugin it does not have).
 */
export const LOCAL_MARKETPLACE = 'local';
export const pluginId = (name: string) => `${name}@${LOCAL_MARKETPLACE}`;

/** Who decided whether a plugin is on: a settings file's `enabledPlugins`, or Carapace's own switch. */
export type PluginStateSource = 'policy' | 'local' | 'project' | 'user' | 'carapace';

export interface PluginState {
  enabled: boolean;
  source: PluginStateSource;
  /** The settings file that decided; null for the switch (`plugins/installed.json`). */
  file: string | null;
  /** Entries of the project's own files that were not used: the folder's trust does not cover them. */
  untrusted: { file: string; enabled: boolean }[];
}

/**
 * Where the enabled state is read: Carapace's folder alone (its user settings, the managed policy of
 * this process's environment and the switch), or a project's settings sources too.
 */
export type PluginPlace = string | SourceLocations;

/** A place with only what needs no project: the user's settings, the policy and the switch. */
function locationsOf(place: PluginPlace): SourceLocations & { projectKnown: boolean } {
  if (typeof place !== 'string') return { ...place, projectKnown: true };
  return { home: place, projectRoot: '', policyFile: managedSettingsFile(process.env), projectKnown: false };
}

/**
 * The project's settings for a plugin-bearing place, with the folder's trust read from Carapace's
 * `trust.json` (the same the app and `carapace -p` read) when the caller has no trust lookup of its own.
 */
export function pluginPlace(
  carapaceHome: string,
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): SourceLocations {
  return {
    home: carapaceHome,
    projectRoot,
    policyFile: managedSettingsFile(env),
    trust: new TrustStore(trustFile(carapaceHome)),
  };
}

/**
 * Whether each installed plugin is on, as Claude Code decides it: the managed policy's
 * `enabledPlugins` forces; then the project's local file, the project's file, the user's settings
 * (`$CARAPACE_HOME/settings.json`), and last Carapace's own switch. Settings only switch plugins the
 * person installed; nothing is installed by a setting. A project's own files (a repository ships them)
 * count only for the entries the folder's trust accepted, item by item, off as much as on: turning a
 * person's guard plugin off widens what runs as surely as turning one on.
 */
export function pluginStates(
  place: PluginPlace,
  installed: readonly InstalledPlugin[],
): { states: Map<string, PluginState>; problems: { file: string; message: string }[] } {
  const loc = locationsOf(place);
  const problems: { file: string; message: string }[] = [];
  const accepted = loc.projectKnown ? (loc.trust?.accepted(loc.projectRoot) ?? new Set<string>()) : null;
  // Highest precedence first (settingsFiles lists policy, local, project, user).
  const layers: {
    source: Exclude<PluginStateSource, 'carapace'>;
    file: string;
    map: Record<string, boolean>;
  }[] = [];
  for (const f of settingsFiles(loc)) {
    if (f.source !== 'policy' && f.source !== 'local' && f.source !== 'project' && f.source !== 'user')
      continue;
    if ((f.source === 'local' || f.source === 'project') && !loc.projectKnown) continue;
    if (!f.exists) continue;
    const read = readSettingsFile(f.path);
    if (read.kind !== 'ok') continue; // the permission loader reports an unreadable file
    for (const p of read.problems)
      if (p.includes('enabledPlugins'))
        problems.push({
          file: f.path,
          message: p.startsWith(`${f.path}: `) ? p.slice(f.path.length + 2) : p,
        });
    layers.push({ source: f.source, file: f.path, map: read.settings.enabledPlugins });
  }
  const states = new Map<string, PluginState>();
  for (const plugin of installed) {
    const id = pluginId(plugin.name);
    const untrusted: PluginState['untrusted'] = [];
    let decided: PluginState | null = null;
    for (const layer of layers) {
      if (!Object.hasOwn(layer.map, id)) continue;
      const on = layer.map[id] as boolean;
      if (
        (layer.source === 'local' || layer.source === 'project') &&
        !accepted?.has(trustKey.plugin(id, on))
      ) {
        untrusted.push({ file: layer.file, enabled: on });
        continue;
      }
      decided = { enabled: on, source: layer.source, file: layer.file, untrusted };
      break;
    }
    states.set(
      plugin.name,
      decided ?? { enabled: plugin.enabled, source: 'carapace', file: null, untrusted },
    );
  }
  return { states, problems };
}

/** The state's origin in words, for Settings → Plugins and `carapace plugin list`. */
export function describeState(s: PluginState, projectRoot: string | null): string {
  const shown = (file: string) =>
    projectRoot !== null && file.startsWith(projectRoot + path.sep) ? path.relative(projectRoot, file) : file;
  const why =
    s.source === 'carapace'
      ? 'by its switch here'
      : s.source === 'policy'
        ? `by the managed policy (${shown(s.file ?? '')})`
        : `by enabledPlugins in ${shown(s.file ?? '')}`;
  const ignored = s.untrusted.map(
    (u) =>
      `${shown(u.file)} would turn it ${u.enabled ? 'on' : 'off'}, but this folder's trust does not cover that`,
  );
  return [`${s.enabled ? 'On' : 'Off'} ${why}`, ...ignored].join('; ');
}
