import { z } from 'zod';
import { channel, Empty } from './common';

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
  enabled: z.boolean(),
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

export const requests = {
  'plugins.list': channel(Empty, PluginsView),
  /** Installs the plugin in a local folder (Claude Code's layout), enabled. */
  'plugins.install': channel(z.strictObject({ folder: z.string().min(1).max(4096) }), PluginsView),
  'plugins.setEnabled': channel(z.strictObject({ name: PluginName, enabled: z.boolean() }), PluginsView),
  /** Forgets the plugin; its folder is left as it is. */
  'plugins.remove': channel(z.strictObject({ name: PluginName }), PluginsView),
} as const;

export const events = {} as const;
