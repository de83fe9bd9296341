import { mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import { builtinTools } from '../tools/registry';
import type { AnyTool, ToolOutput, ToolUseContext } from '../tools/tool';
import { PermissionEngine } from './engine';
import { EngineGate } from './engine-gate';
import { parseRule, type RuleBehavior } from './rule';

/**
 * What the permission engine and the file tools treat as "inside the project": decided on where a
 * path really leads (symlinks resolved), with protected paths asking in every mode but bypass, and
 * the destination checked again when the tool runs.
 */

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

function setup(mode: PermissionMode, rules: [RuleBehavior, string][] = []) {
  const ctx = toolContext({ permissionMode: mode });
  const outside = tempDir('carapace-outside-');
  writeFileSync(path.join(outside, 'id_rsa'), 'SECRET-KEY\n');
  const parsed = rules.map(([b, t]) => parseRule(t, 'user', b, ctx.projectRoot));
  const engine = new PermissionEngine(() => ({
    rules: parsed,
    mode,
    home: '/home/tester',
    sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [] },
  }));
  const gate = new EngineGate({ engine, sessionId: 's', handler: null });
  const decide = (name: string, input: Record<string, unknown>) => engine.decide(tool(name), input, ctx);
  /** Gate then tool, as the executor runs them (the tool gets the gate's checked paths). */
  const run = async (name: string, input: Record<string, unknown>): Promise<ToolOutput | string> => {
    const d = await gate.check(tool(name), input, ctx);
    if (d.behavior === 'deny') return d.message;
    const callCtx: ToolUseContext = d.checkedPaths ? { ...ctx, checkedPaths: d.checkedPaths } : ctx;
    const gen = tool(name).call(input, callCtx) as AsyncGenerator<unknown, ToolOutput>;
    for (;;) {
      const step = await gen.next();
      if (step.done) return step.value;
    }
  };
  return { ctx, outside, decide, run, root: ctx.projectRoot };
}

describe('symlinks out of the project', () => {
  it('Read, Grep and Glob through a link to a folder outside ask, in default and acceptEdits', async () => {
    for (const mode of ['default', 'acceptEdits'] as const) {
      const s = setup(mode);
      symlinkSync(s.outside, path.join(s.root, 'keys'));
      symlinkSync(path.join(s.outside, 'id_rsa'), path.join(s.root, 'notes.txt'));
      const read = await s.decide('Read', { file_path: 'keys/id_rsa' });
      expect(read).toMatchObject({ behavior: 'ask' });
      expect(read.reason).toContain(`which leads to ${path.join(s.outside, 'id_rsa')}`);
      expect(await s.decide('Read', { file_path: 'notes.txt' })).toMatchObject({ behavior: 'ask' });
      expect(await s.decide('Grep', { pattern: 'SECRET', path: 'keys' })).toMatchObject({ behavior: 'ask' });
      expect(await s.decide('Glob', { pattern: '*', path: 'keys' })).toMatchObject({ behavior: 'ask' });
      // Print mode: nobody to ask, so the secret never reaches the model.
      const out = await s.run('Read', { file_path: 'notes.txt' });
      expect(JSON.stringify(out)).not.toContain('SECRET-KEY');
    }
  });

  it('control: links that stay inside the project read normally', async () => {
    const s = setup('default');
    mkdirSync(path.join(s.root, 'docs'));
    writeFileSync(path.join(s.root, 'docs', 'a.md'), 'hello\n');
    symlinkSync(path.join(s.root, 'docs'), path.join(s.root, 'd'));
    expect(await s.decide('Read', { file_path: 'd/a.md' })).toMatchObject({ behavior: 'allow' });
    const out = await s.run('Read', { file_path: 'd/a.md' });
    expect(JSON.stringify(out)).toContain('hello');
  });

  it('a Read allow rule must cover both the link and its target; a deny on either fires', async () => {
    const onlyLink = setup('default', [['allow', 'Read(./keys/**)']]);
    symlinkSync(onlyLink.outside, path.join(onlyLink.root, 'keys'));
    expect(await onlyLink.decide('Read', { file_path: 'keys/id_rsa' })).toMatchObject({ behavior: 'ask' });
    // A deny naming the target fires through a link, even in bypass.
    const d = setup('bypassPermissions');
    const denied = setup('bypassPermissions', [['deny', `Read(//${d.outside.slice(1)}/**)`]]);
    symlinkSync(path.join(d.outside, 'id_rsa'), path.join(denied.root, 'innocent.txt'));
    expect(await denied.decide('Read', { file_path: 'innocent.txt' })).toMatchObject({ behavior: 'deny' });
    // Control: without the link, the same file name in the project is readable.
    writeFileSync(path.join(denied.root, 'other.txt'), 'x');
    expect(await denied.decide('Read', { file_path: 'other.txt' })).toMatchObject({ behavior: 'allow' });
  });

  it('acceptEdits: Write and Edit through a link (file or folder) to outside ask instead of writing there', async () => {
    const s = setup('acceptEdits');
    symlinkSync(s.outside, path.join(s.root, 'out'));
    writeFileSync(path.join(s.outside, 'target.txt'), 'original\n');
    symlinkSync(path.join(s.outside, 'target.txt'), path.join(s.root, 'local.txt'));
    expect(await s.decide('Write', { file_path: 'out/planted.sh', content: 'x' })).toMatchObject({
      behavior: 'ask',
    });
    expect(await s.decide('Write', { file_path: 'local.txt', content: 'x' })).toMatchObject({
      behavior: 'ask',
    });
    const out = await s.run('Write', { file_path: 'out/planted.sh', content: 'x' });
    expect(out).toEqual(expect.stringContaining('denied'));
    expect(readFileSync(path.join(s.outside, 'target.txt'), 'utf8')).toBe('original\n');
    // Control: an ordinary file inside the project is written without asking.
    expect(await s.run('Write', { file_path: 'src/ok.ts', content: 'ok' })).toMatchObject({
      content: expect.stringContaining('File created') as unknown,
    });
  });

  it('a link swapped after the decision makes the tool refuse instead of writing elsewhere', async () => {
    const s = setup('acceptEdits');
    mkdirSync(path.join(s.root, 'build'));
    symlinkSync(path.join(s.root, 'build'), path.join(s.root, 'out'));
    const input = { file_path: 'out/result.txt', content: 'data' };
    const d = await new EngineGate({
      engine: new PermissionEngine(() => ({
        rules: [],
        mode: 'acceptEdits',
        home: '/home/tester',
        sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [] },
      })),
      sessionId: 's',
      handler: null,
    }).check(tool('Write'), input, s.ctx);
    expect(d.behavior).toBe('allow');
    // Between the decision and the write, the link is pointed outside.
    unlinkSync(path.join(s.root, 'out'));
    symlinkSync(s.outside, path.join(s.root, 'out'));
    const callCtx = { ...s.ctx, ...(d.behavior === 'allow' ? { checkedPaths: d.checkedPaths } : {}) };
    const gen = tool('Write').call(input, callCtx) as AsyncGenerator<unknown, ToolOutput>;
    await expect(gen.next()).rejects.toThrow(/not where it led when this call was allowed/);
    expect(() => readFileSync(path.join(s.outside, 'result.txt'))).toThrow();
  });
});

describe('protected paths', () => {
  const targets = [
    '.claude/settings.local.json',
    '.claude/settings.json',
    '.git/config',
    '.git/hooks/pre-commit',
    '.vscode/tasks.json',
    '.bashrc',
    '.mcp.json',
    '.gitmodules',
    '.envrc',
  ];

  it('Write and Edit of protected paths ask in default and acceptEdits, even with an allow rule', async () => {
    for (const mode of ['default', 'acceptEdits'] as const) {
      const s = setup(mode, [['allow', 'Edit(./**)']]);
      for (const rel of targets) {
        const d = await s.decide('Write', { file_path: rel, content: '{}' });
        expect(d.behavior, `${mode} ${rel}`).toBe('ask');
        expect(d.reason).toContain('protected path');
        expect(d.suggestions).toEqual([]);
      }
      const edit = await s.decide('Edit', { file_path: '.git/config', old_string: 'a', new_string: 'b' });
      expect(edit.behavior).toBe('ask');
    }
  });

  it('dontAsk and plan refuse them; bypass allows them; a deny rule still wins in bypass', async () => {
    expect(
      await setup('dontAsk').decide('Write', { file_path: '.claude/settings.json', content: '{}' }),
    ).toMatchObject({ behavior: 'deny' });
    expect(await setup('plan').decide('Write', { file_path: '.git/config', content: '' })).toMatchObject({
      behavior: 'deny',
    });
    expect(
      await setup('bypassPermissions').decide('Write', { file_path: '.git/config', content: '' }),
    ).toMatchObject({ behavior: 'allow' });
    expect(
      await setup('bypassPermissions', [['deny', 'Edit(.git/**)']]).decide('Write', {
        file_path: '.git/config',
        content: '',
      }),
    ).toMatchObject({ behavior: 'deny' });
  });

  it('a link named like an ordinary file that leads to a protected one is protected', async () => {
    const s = setup('acceptEdits');
    mkdirSync(path.join(s.root, '.git'));
    writeFileSync(path.join(s.root, '.git', 'config'), '[core]\n');
    symlinkSync(path.join(s.root, '.git', 'config'), path.join(s.root, 'notes.txt'));
    expect(await s.decide('Write', { file_path: 'notes.txt', content: 'x' })).toMatchObject({
      behavior: 'ask',
    });
    // Control: acceptEdits still writes ordinary files without asking.
    expect(await s.decide('Write', { file_path: 'notes2.txt', content: 'x' })).toMatchObject({
      behavior: 'allow',
      decidedBy: 'mode',
    });
  });
});
