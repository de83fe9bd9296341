import { z } from 'zod';
import { ProjectTrustView, TrustedFolder } from '../../domain/trust';
import { channel, Empty, ProjectRef } from './common';

export const requests = {
  /**
   * Workspace trust: what the project's own settings would widen (allow rules, sandbox changes, hooks,
   * MCP servers, env, apiKeyHelper, a permissive default mode) and which of it the person accepted.
   */
  'trust.get': channel(ProjectRef, ProjectTrustView),
  /**
   * "Trust" accepts, "Don't trust" declines, the items the dialog showed (`keys`) that the folder still
   * has; anything else stays pending and is asked about.
   */
  'trust.decide': channel(
    z.strictObject({
      projectId: z.string().min(1).max(500),
      trust: z.boolean(),
      keys: z.array(z.string().max(100_000)).max(5000),
    }),
    ProjectTrustView,
  ),
  'trust.list': channel(Empty, z.array(TrustedFolder)),
  'trust.revoke': channel(z.strictObject({ path: z.string().min(1).max(4096) }), z.array(TrustedFolder)),
} as const;

export const events = {} as const;
