import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionLogEntry, PermissionMode } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import {
  builtinTool,
  commandHook,
  projectHookRunner,
  projectSessionGate,
  refusingPerson,
} from '../../test-support/hook-gate';
import { HookVerdicts } from './permission-verdicts';
import { withPreToolUseHooks } from './wire';

const tool = builtinTool;

/**
 * The real session gate in `mode`, behind PreToolUse hooks that answer `output` (JSON) for every
 * call, from the project's settings file. A person who is asked refuses, and is counted.
 */
function setup(output: object, mode: PermissionMode = 'default', settings: object = {}) {
  const ctx = toolContext({ toolUseId: 'toolu_h', permissionMode: mode });
  const file = path.join(ctx.projectRoot, '.claude', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings));
  const runner = projectHookRunner(
    ctx,
    [commandHook('PreToolUse', `echo '${JSON.stringify(output)}'`, 'project', file)],
    mode,
  );
  const { person, asked } = refusingPerson();
  const log: PermissionLogEntry[] = [];
  const home = tempDir('carapace-verdicts-home-');
  const verdicts = new HookVerdicts(home);
  const inner = projectSessionGate(ctx, home, {
    handler: person,
    mode,
    onDecision: (e) => log.push(e),
    revise: verdicts.revise,
  });
  const gate = withPreToolUseHooks(inner, runner, (e) => log.push(e), undefined, verdicts);
  return { gate, ctx, asked, log, file };
}

const allow = (extra: object = {}) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', ...extra },
});

describe('PreToolUse permissionDecision against the rules', () => {
  it('allow skips the prompt the rules would show; the log names the hook and its settings file', async () => {
    const { gate, ctx, asked, log, file } = setup(allow({ permissionDecisionReason: 'formatter output' }));
    const d = await gate.check(
      tool('Write'),
      { file_path: path.join(ctx.projectRoot, 'notes.txt'), content: 'x' },
      ctx,
    );
    expect(d.behavior).toBe('allow');
    expect(asked).toHaveLength(0);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ behavior: 'allow', decidedBy: 'hook', toolUseId: 'toolu_h' });
    expect(log[0]?.reason).toBe(`allowed by a PreToolUse hook (project settings: ${file}): formatter output`);

    // Without the hook's verdict the same call is asked (the person refuses it here).
    const control = setup({});
    const c = await control.gate.check(
      tool('Write'),
      { file_path: path.join(control.ctx.projectRoot, 'notes.txt'), content: 'x' },
      control.ctx,
    );
    expect(c.behavior).toBe('deny');
    expect(control.asked).toHaveLength(1);
  });

  it('a project hook answering allow for a Write to .claude/settings.json or .git/hooks/x is still asked', async () => {
    for (const target of ['.claude/settings.json', '.git/hooks/x', '.claude/settings.local.json']) {
      const { gate, ctx, asked, log } = setup(allow());
      const d = await gate.check(
        tool('Write'),
        { file_path: path.join(ctx.projectRoot, target), content: '{}' },
        ctx,
      );
      expect(d.behavior, target).toBe('deny');
      expect(asked, target).toHaveLength(1);
      expect(asked[0]?.reason).toMatch(/protected path.*no hook may approve this/);
      expect(log[0]).toMatchObject({ behavior: 'deny', decidedBy: 'user' });
    }
  });

  it('a PreToolUse allow does not approve `git config core.fsmonitor …` (it writes .git/config without naming it)', async () => {
    const { gate, ctx, asked } = setup(allow());
    const d = await gate.check(tool('Bash'), { command: 'git -c x=y config core.fsmonitor "sh evil"' }, ctx);
    expect(d.behavior).toBe('deny');
    expect(asked[0]?.reason).toMatch(/no hook may approve this: git config changes git's configuration/);
  });

  it('allow does not override a deny rule, an ask rule, or plan mode', async () => {
    const denied = setup(allow(), 'default', { permissions: { deny: ['Bash(touch *)'] } });
    const d = await denied.gate.check(tool('Bash'), { command: 'touch a.txt' }, denied.ctx);
    expect(d.behavior).toBe('deny');
    expect(denied.asked).toHaveLength(0);
    expect(denied.log[0]).toMatchObject({ decidedBy: 'rule', behavior: 'deny' });

    const asks = setup(allow(), 'default', { permissions: { ask: ['Bash(touch *)'] } });
    await asks.gate.check(tool('Bash'), { command: 'touch a.txt' }, asks.ctx);
    expect(asks.asked).toHaveLength(1);
    expect(asks.asked[0]?.reason).toMatch(/the rule still asks/);

    const plan = setup(allow(), 'plan');
    expect((await plan.gate.check(tool('Bash'), { command: 'touch a.txt' }, plan.ctx)).behavior).toBe('deny');
    expect(plan.log[0]).toMatchObject({ decidedBy: 'mode' });
  });

  it('allow with an updatedInput outside the project: the rules judge the new input and still ask', async () => {
    const outside = path.join(tempDir('carapace-outside-'), 'x.txt');
    const { gate, ctx, asked } = setup(allow({ updatedInput: { file_path: outside, content: 'pwned' } }));
    const d = await gate.check(
      tool('Write'),
      { file_path: path.join(ctx.projectRoot, 'ok.txt'), content: 'ok' },
      ctx,
    );
    expect(d.behavior).toBe('deny');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.input).toMatchObject({ file_path: outside });
    expect(asked[0]?.reason).toMatch(/outside the project/);
  });

  it('Bash: allow skips the prompt for an ordinary command, not for one touching .git/hooks or removing the project', async () => {
    const ok = setup(allow());
    expect((await ok.gate.check(tool('Bash'), { command: 'touch a.txt' }, ok.ctx)).behavior).toBe('allow');
    expect(ok.asked).toHaveLength(0);
    for (const command of [
      'echo evil > .git/hooks/pre-commit',
      'cp payload .claude/settings.json',
      'rm -rf ..',
      'rm -rf "$DIR"/*',
      'echo x > $(cat name)',
    ]) {
      const s = setup(allow());
      expect((await s.gate.check(tool('Bash'), { command }, s.ctx)).behavior, command).toBe('deny');
      expect(s.asked, command).toHaveLength(1);
    }
  });

  it('ask forces a prompt for a call the rules allow; in dontAsk mode it is refused', async () => {
    const { gate, ctx, asked, file } = setup({
      hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'check the branch' },
    });
    // `ls` is read-only: the rules allow it without asking.
    expect((await gate.check(tool('Bash'), { command: 'ls' }, ctx)).behavior).toBe('deny');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.reason).toBe(
      `a PreToolUse hook (project settings: ${file}) asks first: check the branch`,
    );

    const dontAsk = setup({ hookSpecificOutput: { permissionDecision: 'ask' } }, 'dontAsk');
    expect((await dontAsk.gate.check(tool('Bash'), { command: 'ls' }, dontAsk.ctx)).behavior).toBe('deny');
    expect(dontAsk.asked).toHaveLength(0);
  });

  it('deny outranks allow across hooks and is logged with the source', async () => {
    const { gate, ctx, log, file } = setup({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    expect((await gate.check(tool('Bash'), { command: 'ls' }, ctx)).behavior).toBe('deny');
    expect(log[0]?.reason).toBe(`refused by a PreToolUse hook (project settings: ${file}): no`);
  });
  it('a link inside the project that leads to .git/hooks or out of the project is judged where it leads', async () => {
    for (const [name, target] of [
      ['notes.txt', (root: string) => path.join(root, '.git', 'hooks', 'pre-commit')],
      ['docs', () => tempDir('carapace-link-out-')],
    ] as const) {
      const { gate, ctx, asked } = setup(allow());
      mkdirSync(path.join(ctx.projectRoot, '.git', 'hooks'), { recursive: true });
      symlinkSync(target(ctx.projectRoot), path.join(ctx.projectRoot, name));
      const file =
        name === 'docs' ? path.join(ctx.projectRoot, 'docs', 'x.txt') : path.join(ctx.projectRoot, name);
      const d = await gate.check(tool('Write'), { file_path: file, content: 'evil' }, ctx);
      expect(d.behavior, name).toBe('deny');
      expect(asked, name).toHaveLength(1);
      expect(asked[0]?.reason, name).toMatch(/no hook may approve this/);
    }
  });
});
