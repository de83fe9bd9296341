import { z } from 'zod';
import {
  PermissionLogEntry,
  PermissionRequestView,
  PermissionResponse,
  RulesView,
  SandboxView,
} from '../../domain/permissions';
import { channel, Empty, ProjectRef, SessionRef } from './common';

/** Permission requests (the inbox), their log, the rules, and the state of the OS sandbox. */

export const requests = {
  /** Every pending permission request of every session (the inbox). */
  'permissions.pending': channel(Empty, z.array(PermissionRequestView)),
  'permissions.respond': channel(PermissionResponse, z.object({ ok: z.literal(true) })),
  'permissions.log': channel(SessionRef, z.array(PermissionLogEntry)),
  'permissions.rules': channel(ProjectRef, RulesView),
  /** Writes a rule to the project's `.claude/settings.local.json` (e.g. from a past approval). */
  'permissions.addRule': channel(
    z.strictObject({
      projectId: z.string().min(1),
      behavior: z.enum(['allow', 'deny', 'ask']),
      text: z.string().min(1).max(2000),
    }),
    RulesView,
  ),
  'permissions.removeRule': channel(
    z.strictObject({
      projectId: z.string().min(1),
      behavior: z.enum(['allow', 'deny', 'ask']),
      text: z.string().min(1).max(2000),
    }),
    RulesView,
  ),

  /** Whether a project's Bash commands run inside the OS sandbox, and if not, why. */
  'sandbox.status': channel(ProjectRef, SandboxView),
} as const;

export const events = {
  'permissions.requested': z.object({ request: PermissionRequestView }),
  'permissions.resolved': z.object({ requestId: z.string(), sessionId: z.string() }),
  'permissions.logged': z.object({ sessionId: z.string(), entry: PermissionLogEntry }),
} as const;
