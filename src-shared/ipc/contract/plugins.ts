import { z } from 'zod';
import { channel } from './common';

/** Who decides whether a plugin is on: a settings file's `enabledPlugins`, or Carapace's switch. */
export const PluginStateSource = z.enum(['policy', 'local', 'project', 'user', 'carapace']);
export type PluginStateSource = z.infer<typeof PluginStateSource>;

/** One installed plugin as Settings → Plugins lists it. */
export const PluginView = z.object({
  name: z.string(),
  /** From its plugin.json, when that can be read now. */
  version: z.string().nullable(),
  description: z.string().nullable(),
  /** Carapace's copy of it (`$CARAPACE_HOME/plugins/<name>`), which is what is loaded. */
  folder: z.string(),
  /** The local folder it was copied from; null for a plugin listed before copies were made. */
  source: z.string().nullable(),
  /** Carapace's own switch (`plugins/installed.json`); a settings file may outrank it (`state`). */
  enabled: z.boolean(),
  /**
   * Whether it is on for the open project (or, without one, for the user), and who decided:
   * `enabledPlugins` (key `name@local`) of the policy, the project's local or shared file (as far
   * as the folder's trust accepted it) or the user's settings; else the switch.
   */
  state: z.object({
    enabled: z.boolean(),
    source: PluginStateSource,
    file: z.string().nullable(),
    /** The decision in words, with any entry of the project's files its trust did not cover; null when it is just the switch. */
    note: z.string().nullable(),
  }),
  /** Its persistent `${CLAUDE_PLUGIN_DATA}` folder, when it has been made. */
  dataFolder: z.string().nullable(),
  /** Why it cannot be loaded now (folder gone, plugin.json broken), or null. */
  problem: z.string().nullable(),
});
export type PluginView = z.infer<typeof PluginView>;

export const PluginsView = z.object({
  plugins: z.array(PluginView),
  /** The list of installed plugins itself could not be read (it is then never overwritten). */
  problem: z.string().nullable(),
});
export type PluginsView = z.infer<typeof PluginsView>;

const PluginName = z.string().min(1).max(64);
/** The open project, whose settings' `enabledPlugins` the answer's states include. */
const ProjectId = z.string().min(1).max(500).optional();

export const requests = {
  'plugins.list': channel(z.strictObject({ projectId: ProjectId }), PluginsView),
  /** Installs the plugin in a local folder (Claude Code's layout), enabled. */
  'plugins.install': channel(
    z.strictObject({ folder: z.string().min(1).max(4096), projectId: ProjectId }),
    PluginsView,
  ),
  'plugins.setEnabled': channel(
    z.strictObject({ name: PluginName, enabled: z.boolean(), projectId: ProjectId }),
    PluginsView,
  ),
  /**
   * Forgets the plugin and removes Carapace's copy; its data folder too unless `keepData`. The
   * folder it was installed from is left as it is.
   */
  'plugins.remove': channel(
    z.strictObject({ name: PluginName, keepData: z.boolean().optional(), projectId: ProjectId }),
    PluginsView,
  ),
} as const;

export const events = {} as const;
