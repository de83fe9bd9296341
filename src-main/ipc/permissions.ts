import type { RulesView } from '@shared/domain/permissions';
import { RuleSyntaxError } from '../harness/permissions/rule';
import {
  addLocalRule,
  loadPermissionSources,
  removeLocalRule,
} from '../harness/permissions/settings-sources';
import { AppError } from '../platform/errors';
import type { HandlerMap } from './router';
import type { Services } from './services';

type PermissionChannels =
  | 'permissions.pending'
  | 'permissions.respond'
  | 'permissions.log'
  | 'permissions.rules'
  | 'permissions.addRule'
  | 'permissions.removeRule';

function projectRoot(s: Services, projectId: string): string {
  return s.workspace.snapshot(projectId).project.path;
}

function rulesView(s: Services, projectId: string): RulesView {
  const sources = loadPermissionSources(s.permissionLocations(projectRoot(s, projectId)));
  const status = s.sandboxStatus();
  return {
    files: sources.files,
    rules: sources.rules.map((r) => ({ source: r.source, behavior: r.behavior, text: r.text })),
    problems: sources.problems,
    sandbox: {
      enabled: sources.sandbox.enabled,
      available: status.available,
      autoAllowBashIfSandboxed: sources.sandbox.autoAllowBashIfSandboxed,
      reason: status.reason,
    },
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
      asInputError(() => addLocalRule(projectRoot(s, projectId), behavior, text));
      return rulesView(s, projectId);
    },
    'permissions.removeRule': ({ projectId, behavior, text }) => {
      asInputError(() => removeLocalRule(projectRoot(s, projectId), behavior, text));
      return rulesView(s, projectId);
    },
  };
}
