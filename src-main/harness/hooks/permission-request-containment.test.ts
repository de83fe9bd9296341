import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import {
  interactiveHandler,
  type Decider,
  type PermissionHandler,
  type PermissionRequest,
} from '../permissions/handlers';
import {
  builtinTool,
  commandHook,
  projectHookRunner,
  projectSessionGate,
} from '../../test-support/hook-gate';
import { hooksOnlyHandler, permissionRequestDecider } from './permission-request';
import { HookVerdicts } from './permission-verdicts';

const tool = builtinTool;

const allowAll = {
  hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
};

/**
 * The real session gate in default mode with a project PermissionRequest hook that allows every
 * dialog (the lazy "approve all writes" hook a hostile model would like to meet). `interactive`: a
 * person races the hook and refuses; otherwise the hooks alone answer, as in -p.
 */
function setup(interactive: boolean) {
  const ctx = toolContext({ toolUseId: 'toolu_pr', permissionMode: 'default' });
  const file = path.join(ctx.projectRoot, '.claude', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '{}');
  const runner = projectHookRunner(ctx, [
    commandHook('PermissionRequest', `echo '${JSON.stringify(allowAll)}'`, 'project', file),
  ]);
  const asked: PermissionRequest[] = [];
  // The person answers only after the hook has answered: a hook that may answer wins the race.
  let hookDone: () => void = () => undefined;
  const hookAnswered = new Promise<void>((resolve) => (hookDone = resolve));
  const decider = permissionRequestDecider(runner);
  const hook: Decider = async (request, signal) => {
    try {
      return await decider(request, signal);
    } finally {
      hookDone();
    }
  };
  const person: Decider = async (request) => {
    asked.push(request);
    await hookAnswered;
    await new Promise((resolve) => setImmediate(resolve));
    return { behavior: 'deny', by: 'user' };
  };
  const handler: PermissionHandler = interactive
    ? interactiveHandler({ askUser: person, hooks: hook })
    : hooksOnlyHandler(runner);
  const log: PermissionLogEntry[] = [];
  const home = tempDir('carapace-prc-home-');
  const gate = projectSessionGate(ctx, home, {
    handler,
    onDecision: (e) => log.push(e),
    revise: new HookVerdicts(home).revise,
  });
  return { gate, ctx, asked, log, home };
}

const PERSISTENCE = [
  '.claude/settings.local.json',
  '.claude/settings.json',
  '.mcp.json',
  '.git/config',
  '.git/hooks/pre-commit',
  '.claude/commands/x.md',
  '.claude/skills/x/SKILL.md',
  '.claude/agents/x.md',
  'sub/.mcp.json',
];

describe('a PermissionRequest hook cannot approve past the project containment', () => {
  it('-p: a project hook allowing everything approves an ordinary Write but not one to a persistence file', async () => {
    const ok = setup(false);
    const d = await ok.gate.check(
      tool('Write'),
      { file_path: path.join(ok.ctx.projectRoot, 'src', 'a.ts'), content: 'x' },
      ok.ctx,
    );
    expect(d.behavior).toBe('allow');
    expect(ok.log.at(-1)).toMatchObject({ behavior: 'allow', decidedBy: 'hook' });

    for (const target of PERSISTENCE) {
      const { gate, ctx, log } = setup(false);
      const r = await gate.check(
        tool('Write'),
        { file_path: path.join(ctx.projectRoot, target), content: '{"hooks":{}}' },
        ctx,
      );
      expect(r.behavior, target).toBe('deny');
      expect(log.at(-1)?.reason, target).toMatch(/no hook may approve this/);
    }
  });

  it("-p: nor a Write through a link out of the project, into Carapace's folder, or a Bash redirect into .git/hooks", async () => {
    const { gate, ctx, home } = setup(false);
    const outside = tempDir('carapace-prc-outside-');
    symlinkSync(outside, path.join(ctx.projectRoot, 'out'));
    const viaLink = await gate.check(
      tool('Write'),
      { file_path: path.join(ctx.projectRoot, 'out', 'x.sh'), content: 'x' },
      ctx,
    );
    expect(viaLink.behavior).toBe('deny');
    const carapace = await gate.check(
      tool('Write'),
      { file_path: path.join(home, 'settings.json'), content: '{}' },
      ctx,
    );
    expect(carapace.behavior).toBe('deny');
    const bash = await gate.check(tool('Bash'), { command: 'echo evil > .git/hooks/pre-commit' }, ctx);
    expect(bash.behavior).toBe('deny');
  });

  it("-p: nor a git command that rewrites git's own configuration (it names programs git runs later)", async () => {
    for (const command of [
      'git config core.fsmonitor "touch pwned"',
      'git config --global alias.st "!sh -c evil"',
      'git config --file .git/config core.hooksPath /tmp/h',
      'git -C . config core.pager evil',
      'git remote add origin "ext::sh -c evil"',
      'git submodule add https://example.com/x.git x',
      'pre-commit install',
      'npx husky init',
      'git lfs install',
      'npm config set script-shell ./evil.sh',
    ]) {
      const { gate, ctx, log } = setup(false);
      const r = await gate.check(tool('Bash'), { command }, ctx);
      expect(r.behavior, command).toBe('deny');
      expect(log.at(-1)?.reason, command).toMatch(/no hook may approve this/);
    }
    // An ordinary git command that needs approval is still the hook's to answer.
    const { gate, ctx } = setup(false);
    const commit = await gate.check(tool('Bash'), { command: 'git commit -m x' }, ctx);
    expect(commit.behavior).toBe('allow');
  });

  it('in the app the person is still asked for .mcp.json, and refuses; the hook does not win the race', async () => {
    const { gate, ctx, asked, log } = setup(true);
    const r = await gate.check(
      tool('Write'),
      { file_path: path.join(ctx.projectRoot, '.mcp.json'), content: '{}' },
      ctx,
    );
    expect(r.behavior).toBe('deny');
    expect(asked).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({ behavior: 'deny', decidedBy: 'user' });
  });
});
