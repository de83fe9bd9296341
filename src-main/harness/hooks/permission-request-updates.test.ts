import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import type { AnyTool } from '../tools/tool';
import {
  builtinTool,
  commandHook,
  projectHookRunner,
  projectSessionGate,
} from '../../test-support/hook-gate';
import { interactiveHandler } from '../permissions/handlers';
import { hooksOnlyHandler, permissionRequestDecider, sessionRulesOf } from './permission-request';
import { HookVerdicts } from './permission-verdicts';
import type { HookSource } from './sources';

const bash = (): AnyTool => builtinTool('Bash');

/**
 * The real session gate in default mode, where the PermissionRequest hooks alone answer (as in -p),
 * with one command hook of `source` printing `decision`.
 */
function setup(decision: object, source: HookSource, app = false) {
  const ctx = toolContext({ toolUseId: 'toolu_u', permissionMode: 'default' });
  const home = tempDir('carapace-pru-home-');
  const answerFile = path.join(home, 'answer.json');
  writeFileSync(
    answerFile,
    JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }),
  );
  const file = path.join(home, 'settings.json');
  const runner = projectHookRunner(ctx, [
    commandHook('PermissionRequest', `cat > /dev/null; cat '${answerFile}'`, source, file),
  ]);
  const log: PermissionLogEntry[] = [];
  const gate = projectSessionGate(ctx, home, {
    // In the app the hooks race a person, here one who has not answered yet (the hook wins).
    handler: app
      ? interactiveHandler({
          askUser: (_request, signal) =>
            new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true })),
          hooks: permissionRequestDecider(runner, { projectRoot: ctx.projectRoot, projectTrusted: true }),
        })
      : hooksOnlyHandler(runner, ctx.projectRoot),
    onDecision: (e) => log.push(e),
    revise: new HookVerdicts(home).revise,
  });
  return { gate, ctx, log, file };
}

describe('PermissionRequest updatedInput and updatedPermissions at the gate', () => {
  it('the permission log names the hook and records that it changed the input (the input that ran is logged)', async () => {
    const { gate, ctx, log, file } = setup(
      { behavior: 'allow', updatedInput: { command: 'touch b.txt' } },
      'user',
    );
    const d = await gate.check(bash(), { command: 'touch a.txt' }, ctx);
    expect(d).toMatchObject({ behavior: 'allow', updatedInput: { command: 'touch b.txt' } });
    const entry = log.at(-1);
    expect(entry).toMatchObject({
      behavior: 'allow',
      decidedBy: 'hook',
      summary: 'touch b.txt',
      input: { command: 'touch b.txt' },
    });
    expect(entry?.reason).toContain(`a PermissionRequest hook (user settings: ${file})`);
    expect(entry?.reason).toContain('with a changed input (was: touch a.txt)');
  });

  it('a changed input the deny rules refuse is refused, with the rule in the log', async () => {
    const { gate, ctx, log } = setup(
      { behavior: 'allow', updatedInput: { command: 'curl example.com' } },
      'user',
    );
    mkdirSync(path.join(ctx.projectRoot, '.claude'), { recursive: true });
    writeFileSync(
      path.join(ctx.projectRoot, '.claude', 'settings.local.json'),
      JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } }),
    );
    const d = await gate.check(bash(), { command: 'touch a.txt' }, ctx);
    expect(d.behavior).toBe('deny');
    expect(log.at(-1)).toMatchObject({ behavior: 'deny', rule: { text: 'Bash(curl:*)' } });
  });

  it('addRules to the session applies to the next call; a destination in a settings file is not honoured and nothing is written', async () => {
    const { gate, ctx, log } = setup(
      {
        behavior: 'allow',
        updatedPermissions: [
          {
            type: 'addRules',
            rules: [{ toolName: 'Bash', ruleContent: 'make build:*' }],
            behavior: 'allow',
            destination: 'session',
          },
          {
            type: 'addRules',
            rules: [{ toolName: 'Bash' }],
            behavior: 'allow',
            destination: 'localSettings',
          },
          { type: 'setMode', mode: 'bypassPermissions', destination: 'session' },
        ],
      },
      'user',
    );
    const first = await gate.check(bash(), { command: 'make build' }, ctx);
    expect(first.behavior).toBe('allow');
    expect(log.at(-1)?.reason).toContain('added for this session: allow Bash(make build:*)');
    expect(log.at(-1)?.reason).toContain(
      'addRules to localSettings (only addRules to the session is honoured)',
    );
    expect(log.at(-1)?.reason).toContain('setMode to session');
    // The next matching call is allowed by the session rule, without asking the hook.
    const second = await gate.check(
      bash(),
      { command: 'make build --fast' },
      { ...ctx, toolUseId: 'toolu_2' },
    );
    expect(second.behavior).toBe('allow');
    expect(log.at(-1)).toMatchObject({
      decidedBy: 'rule',
      rule: { text: 'Bash(make build:*)', source: 'session' },
    });
    // Only the session's rule: a plain `Bash` allow (to localSettings) was not added anywhere.
    await gate.check(bash(), { command: 'touch z.txt' }, { ...ctx, toolUseId: 'toolu_3' });
    expect(log.at(-1)).toMatchObject({ decidedBy: 'hook' });
    expect(existsSync(path.join(ctx.projectRoot, '.claude', 'settings.local.json'))).toBe(false);
  });

  it("a project hook where the project is not trusted (-p) adds no rules; in the app's trusted project it may", () => {
    const update = [
      { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' },
    ];
    expect(sessionRulesOf(update, 'project', '/p', false)).toEqual({
      rules: [],
      ignored: ['a hook of an untrusted project may not add permission rules'],
    });
    expect(sessionRulesOf(update, 'local', '/p', true).rules).toEqual([{ behavior: 'allow', rule: 'Bash' }]);
    expect(sessionRulesOf(update, 'plugin', '/p', false).rules).toEqual([
      { behavior: 'allow', rule: 'Bash' },
    ]);
    // Malformed entries are named and skipped, never thrown.
    const bad = sessionRulesOf(
      [
        42,
        {
          type: 'addRules',
          behavior: 'allow',
          destination: 'session',
          rules: [{ toolName: 7 }, { toolName: 'Bash', ruleContent: '' }],
        },
      ],
      'user',
      '/p',
      false,
    );
    expect(bad.rules).toEqual([]);
    expect(bad.ignored).toHaveLength(3);
  });

  it('in the app (the hook racing the person), a trusted project hook’s changed input runs and its session rule applies', async () => {
    const { gate, ctx, log } = setup(
      {
        behavior: 'allow',
        updatedInput: { command: 'make build --quiet' },
        updatedPermissions: [
          {
            type: 'addRules',
            rules: [{ toolName: 'Bash', ruleContent: 'make build:*' }],
            behavior: 'allow',
            destination: 'session',
          },
        ],
      },
      'project',
      true,
    );
    const d = await gate.check(bash(), { command: 'make build' }, ctx);
    expect(d).toMatchObject({ behavior: 'allow', updatedInput: { command: 'make build --quiet' } });
    expect(log.at(-1)?.reason).toContain('with a changed input (was: make build)');
    const next = await gate.check(bash(), { command: 'make build --all' }, { ...ctx, toolUseId: 'toolu_2' });
    expect(next.behavior).toBe('allow');
    expect(log.at(-1)).toMatchObject({ decidedBy: 'rule', rule: { source: 'session' } });
    // And the changed input is held like any: into .git/hooks it is refused though the hook allowed.
    const held = setup(
      { behavior: 'allow', updatedInput: { command: 'cp x .git/hooks/pre-commit' } },
      'project',
      true,
    );
    const r = await held.gate.check(bash(), { command: 'make build' }, held.ctx);
    expect(r.behavior).toBe('deny');
    expect(held.log.at(-1)?.reason).toMatch(/no hook may approve/);
  });

  it('a refused changed input adds none of the rules its hook asked for', async () => {
    const { gate, ctx, log } = setup(
      {
        behavior: 'allow',
        updatedInput: { command: 'cp x .git/hooks/pre-commit' },
        updatedPermissions: [
          { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' },
        ],
      },
      'user',
    );
    expect((await gate.check(bash(), { command: 'make build' }, ctx)).behavior).toBe('deny');
    // Had the rule been added, this would be allowed by it, without asking the hook.
    await gate.check(bash(), { command: 'touch z.txt' }, { ...ctx, toolUseId: 'toolu_2' });
    expect(log.at(-1)).not.toMatchObject({ decidedBy: 'rule' });
  });

  it('-p: a project hook asking for a session rule gets its call answered but adds no rule', async () => {
    const { gate, ctx, log } = setup(
      {
        behavior: 'allow',
        updatedPermissions: [
          { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' },
        ],
      },
      'project',
    );
    await gate.check(bash(), { command: 'touch a.txt' }, ctx);
    expect(log.at(-1)?.reason).toContain('a hook of an untrusted project may not add permission rules');
    await gate.check(bash(), { command: 'touch b.txt' }, { ...ctx, toolUseId: 'toolu_2' });
    expect(log.at(-1)).toMatchObject({ decidedBy: 'hook' });
  });
});
