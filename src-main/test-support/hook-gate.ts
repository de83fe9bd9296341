import path from 'node:path';
import type { PermissionMode } from '@shared/domain/permissions';
import { tempDir } from './temp';
import type { PermissionHandler, PermissionRequest } from '../harness/permissions/handlers';
import type { EngineGate } from '../harness/permissions/engine-gate';
import { createSessionGate, type SessionGateOptions } from '../harness/permissions/session-gate';
import { builtinTools } from '../harness/tools/registry';
import type { AnyTool, ToolUseContext } from '../harness/tools/tool';
import { HookRunner } from '../harness/hooks/dispatch';
import type { ConfiguredHook, HookSource } from '../harness/hooks/sources';

/*
 * The setup the permission-request, permission-verdicts and wire tests share: a built-in tool by
 * name, a real HookRunner over a temp project, one command hook, a person who refuses, and the real
 * session gate with its own empty homes. Test code only.
 */

/** The built-in tool called `name`. */
export function builtinTool(name: string): AnyTool {
  const t = builtinTools().find((x) => x.name === name);
  if (!t) throw new Error(`no ${name} tool`);
  return t;
}

/** One command hook for `event` matching every tool, from settings file `file` of `source`. */
export function commandHook(
  event: ConfiguredHook['event'],
  command: string,
  source: HookSource,
  file: string,
): ConfiguredHook {
  return { event, matcher: '', handler: { type: 'command', command }, source, file };
}

/** A real HookRunner for the temp project of `ctx`, running `hooks` in permission mode `mode`. */
export function projectHookRunner(
  ctx: ToolUseContext,
  hooks: readonly ConfiguredHook[],
  mode: PermissionMode = 'default',
): HookRunner {
  return new HookRunner({
    hooks: () => hooks,
    sessionId: 's',
    transcriptPath: path.join(ctx.sessionDir, 's.jsonl'),
    projectDir: ctx.projectRoot,
    cwd: () => ctx.projectRoot,
    permissionMode: () => mode,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    home: ctx.projectRoot,
  });
}

/** A person who refuses whatever is asked, and the requests they were asked. */
export function refusingPerson(): { person: PermissionHandler; asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  const person: PermissionHandler = {
    resolve: (request) => {
      asked.push(request);
      return Promise.resolve({ behavior: 'deny', by: 'user' });
    },
  };
  return { person, asked };
}

/**
 * The real session gate for the project of `ctx`, with settings home `home` (no policy file there)
 * and a fresh empty user home.
 */
export function projectSessionGate(
  ctx: ToolUseContext,
  home: string,
  o: {
    handler: PermissionHandler | null;
    mode?: PermissionMode;
  } & Pick<SessionGateOptions, 'onDecision' | 'revise'>,
): EngineGate {
  const mode = o.mode ?? 'default';
  return createSessionGate({
    sessionId: 's',
    locations: { home, projectRoot: ctx.projectRoot, policyFile: path.join(home, 'no-policy.json') },
    mode: () => mode,
    sandboxActive: () => false,
    handler: o.handler,
    home: tempDir('carapace-hooks-user-'),
    ...(o.onDecision ? { onDecision: o.onDecision } : {}),
    ...(o.revise ? { revise: o.revise } : {}),
  });
}
