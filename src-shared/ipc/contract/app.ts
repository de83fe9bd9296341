import { z } from 'zod';
import { channel, Empty } from './common';

export const AppInfo = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'websocket']),
  platform: z.string(),
  homeDir: z.string(),
  capabilities: z.object({
    /** A native folder picker exists (desktop only). */
    nativeFolderPicker: z.boolean(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const requests = {
  'app.info': channel(Empty, AppInfo),
} as const;

export const events = {} as const;
