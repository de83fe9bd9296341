import { z } from 'zod';
import { SessionId } from '../../domain/session';
import { TabsState } from '../../domain/workspace';
import { channel } from './common';

export const requests = {
  'tabs.open': channel(z.strictObject({ projectId: z.string().min(1), sessionId: SessionId }), TabsState),
  'tabs.close': channel(z.strictObject({ projectId: z.string().min(1), sessionId: SessionId }), TabsState),
  'tabs.activate': channel(z.strictObject({ projectId: z.string().min(1), sessionId: SessionId }), TabsState),
  'tabs.reorder': channel(
    z.strictObject({ projectId: z.string().min(1), order: z.array(SessionId).max(500) }),
    TabsState,
  ),
} as const;

export const events = {
  'tabs.changed': z.object({ projectId: z.string(), tabs: TabsState }),
} as const;
