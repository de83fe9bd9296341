import { describe, expect, it } from 'vitest';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import { testGate } from '../../test-support/gate';
import { toolContext } from '../../test-support/tool-context';
import { builtinTool, projectHookRunner } from '../../test-support/hook-gate';
import type { ConfiguredHook } from './sources';
import { withPreToolUseHooks } from './wire';

describe('withPreToolUseHooks', () => {
  it("writes a hook's refusal to the permission log, decided by the hook, with its source", async () => {
    const ctx = toolContext({ toolUseId: 'toolu_9' });
    const hooks: ConfiguredHook[] = [
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        handler: { type: 'command', command: 'echo "not on main" >&2; exit 2' },
        source: 'user',
        file: '/home/settings.json',
      },
    ];
    // The hooks are read on each call, so the edit to `hooks` below applies to the next check.
    const runner = projectHookRunner(ctx, hooks, 'bypassPermissions');
    const log: PermissionLogEntry[] = [];
    // The real gate, in bypass mode: it would allow the call; the hook refuses it first.
    const gate = withPreToolUseHooks(testGate(ctx.projectRoot), runner, (e) => log.push(e));
    const bash = builtinTool('Bash');
    const decision = await gate.check(bash, { command: 'git push' }, ctx);
    expect(decision).toEqual({
      behavior: 'deny',
      message: 'A PreToolUse hook blocked this Bash call: not on main',
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      toolName: 'Bash',
      toolUseId: 'toolu_9',
      summary: 'git push',
      behavior: 'deny',
      decidedBy: 'hook',
      reason: 'refused by a PreToolUse hook (user settings: /home/settings.json): not on main',
    });
    // Another command passes the hook and the gate decides as usual.
    hooks[0] = { ...hooks[0]!, handler: { type: 'command', command: 'exit 0' } };
    expect((await gate.check(bash, { command: 'git push' }, ctx)).behavior).toBe('allow');
  });
});
