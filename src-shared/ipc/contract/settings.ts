import { z } from 'zod';
import { SettingsPatch, SettingsView } from '../../domain/settings';
import { channel, Empty } from './common';

export const requests = {
  'settings.get': channel(Empty, SettingsView),
  'settings.update': channel(SettingsPatch, SettingsView),
  /** Stores (or with null, forgets) the API key; the key never comes back over IPC. */
  'settings.setApiKey': channel(z.strictObject({ key: z.string().min(1).max(500).nullable() }), SettingsView),
} as const;

export const events = {
  'settings.changed': z.object({ settings: SettingsView }),
} as const;
