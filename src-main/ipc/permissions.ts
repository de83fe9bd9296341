import type { RulesView, SandboxView } from '@shared/domain/permissions';
import { RuleSyntaxError } from '../harness/permissions/rule';
import {
  addLocalRule,
  loadPermissionSources,
  removeLocalRule,
  type PermissionSources,
} from '../harness/permissions/settings-sources';
import { trustKey } from '../harness/permissions/trust';
import { AppError } from '../platform/errors';
import type { HandlerMap } from './router';
import type { Services } from './services';

type PermissionChannels =
  | 'permissions.pending'
  | 'permissions.respond'
  | 'permissions.log'
  | 'permissions.rules'
  | 'permissions.addRule'
  | 'permissions.removeRule'
  | 'sandbox.status'
  | 'tasks.list'
  | 'tasks.stop';

function projectRoot(s: Services, projectId: string): string {
  return s.workspace.snapshot(projectId).project.path;
}

async function sandboxView(s: Services, sources: PermissionSources): Promise<SandboxView> {
  const status = await s.sandboxStatus();
  return {
    enabled: sources.sandbox.enabled,
    available: status.available,
    autoAllowBashIfSandboxed: sources.sandbox.autoAllowBashIfSandboxed,
    reason: status.reason,
    allowedDomains: sources.sandbox.allowedDomains,
  };
}

async function rulesView(s: Services, projectId: string): Promise<RulesView> {
  const sources = loadPermissionSources(s.permissionLocations(projectRoot(s, projectId)));
  return {
    files: sources.files,
    rules: sources.rules.map((r) => ({ source: r.source, behavior: r.behavior, text: r.text })),
    problems: sources.problems,
    sandbox: await sandboxView(s, sources),
  };
}

/** A malformed rule typed by a person is their input error, not ours. */
function asInputError(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (error instanceof RuleSyntaxError) throw new AppError('INVALID_INPUT', error.message);
    throw error;
  }
}

/** Permissions, the sandbox and background tasks: what an agent may do, and what it is running. */
export function permissionHandlers(s: Services): Pick<HandlerMap, PermissionChannels> {
  return {
    'permissions.pending': () => s.broker.list(),
    'permissions.respond': (response) => {
      s.broker.respond(response);
      return { ok: true as const };
    },
    'permissions.log': ({ sessionId }) => [...s.sessions.permissionLog(sessionId)],
    'permissions.rules': ({ projectId }) => rulesView(s, projectId),
    'permissions.addRule': ({ projectId, behavior, text }) => {
      const root = projectRoot(s, projectId);
      asInputError(() => addLocalRule(root, behavior, text));
      // A rule the person writes here is theirs: it applies even where the folder is not trusted.
      if (behavior === 'allow') s.trust.accept(root, [trustKey.allow(text)]);
      return rulesView(s, projectId);
    },
    'permissions.removeRule': ({ projectId, behavior, text }) => {
      asInputError(() => removeLocalRule(projectRoot(s, projectId), behavior, text));
      return rulesView(s, projectId);
    },
    'sandbox.status': ({ projectId }) =>
      sandboxView(s, loadPermissionSources(s.permissionLocations(projectRoot(s, projectId)))),
    'tasks.list': ({ sessionId }) => s.sessions.tasks(sessionId),
    'tasks.stop': ({ sessionId, taskId }) => ({ stopped: s.sessions.stopTask(sessionId, taskId) }),
  };
}
