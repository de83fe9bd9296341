import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionMode } from '@shared/domain/permissions';
import { toolContext } from '../../test-support/tool-context';
import { PermissionEngine } from '../permissions/engine';
import { EngineGate } from '../permissions/engine-gate';
import { interactiveHandler, type PermissionRequest } from '../permissions/handlers';
import { parseRule } from '../permissions/rule';
import { builtinTools } from '../tools/registry';
import { buildTool, type AnyTool, type ToolOutput, type ToolUseContext } from '../tools/tool';
import { readOnlyGate } from './read-only-gate';

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

/** A stand-in for a tool Carapace does not have yet (NotebookEdit) or an MCP tool that writes files. */
const fileTool = (name: string, writes: boolean) =>
  buildTool({
    name,
    description: name,
    inputSchema: z.object({ path: z.string() }),
    writesTo: (input: { path: string }) => (writes ? [input.path] : []),
    // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- never run: only permissions are checked
    async *call(): AsyncGenerator<never, ToolOutput> {
      return { content: '' };
    },
  }) as AnyTool;

/**
 * A read-only gate over the real permission engine and gate. The person (askUser) says yes to
 * everything and is recorded, so a test sees which calls reached the normal permissions and were asked.
 */
function gate(o: { runsChecks: boolean; mode?: PermissionMode; deny?: string[] }) {
  const ctx = toolContext();
  const rules = (o.deny ?? []).map((r) => parseRule(r, 'project', 'deny', ctx.projectRoot));
  const engine = new PermissionEngine(() => ({
    rules,
    mode: o.mode ?? 'default',
    home: '/home/tester',
    sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [] },
  }));
  const asked: PermissionRequest[] = [];
  const handler = interactiveHandler({
    askUser: (request) => {
      asked.push(request);
      return Promise.resolve({ behavior: 'allow', by: 'user' });
    },
  });
  const g = readOnlyGate(new EngineGate({ engine, sessionId: 's', handler }), { runsChecks: o.runsChecks });
  return {
    ctx,
    asked,
    filter: (tools: AnyTool[]) => g.filterTools(tools).map((t) => t.name),
    // A fresh signal per call, as each call of a turn would have (the handler listens on it).
    bash: (command: string) => g.check(tool('Bash'), { command }, fresh(ctx)),
    run: (t: AnyTool, input: Record<string, unknown>) => g.check(t, input, fresh(ctx)),
  };
}

const fresh = (ctx: ToolUseContext): ToolUseContext => ({
  ...ctx,
  abortSignal: new AbortController().signal,
});

const REFUSED = [
  'rm x',
  'echo a > f',
  'touch f',
  'mv a b',
  'cp a b',
  "sed -i 's/a/b/' f",
  'git commit -m x',
  'mkdir d',
  'ls && rm -rf d',
  'cat $(rm x)',
];

describe('readOnlyGate', () => {
  it('never offers the file-writing tools, and still applies the inner gate’s filter', () => {
    const g = gate({ runsChecks: false, deny: ['Grep'] });
    const names = g.filter([...builtinTools(), fileTool('NotebookEdit', true), fileTool('MultiEdit', true)]);
    expect(names).toEqual(expect.arrayContaining(['Read', 'Glob', 'Bash', 'TodoWrite']));
    for (const gone of ['Write', 'Edit', 'NotebookEdit', 'MultiEdit', 'Grep'])
      expect(names).not.toContain(gone);
  });

  it('refuses Write, Edit and NotebookEdit calls, even where the normal permissions would allow them', async () => {
    const g = gate({ runsChecks: true, mode: 'bypassPermissions' });
    const file = path.join(g.ctx.projectRoot, 'a.txt');
    for (const [t, input] of [
      [tool('Write'), { file_path: file, content: 'x' }],
      [tool('Edit'), { file_path: file, old_string: 'a', new_string: 'b' }],
      [fileTool('NotebookEdit', true), { path: file }],
    ] as const) {
      const d = await g.run(t, input);
      expect(d.behavior, t.name).toBe('deny');
      expect(d.behavior === 'deny' && d.message).toContain('you are a read-only agent');
    }
    // Any other tool that says it writes a file is refused too; one that does not goes through.
    expect(await g.run(fileTool('mcp__fs__save', true), { path: file })).toMatchObject({ behavior: 'deny' });
    expect(await g.run(fileTool('mcp__fs__stat', false), { path: file })).toMatchObject({
      behavior: 'allow',
    });
    expect(g.asked).toEqual([]);
  });

  it('lets read-only commands through to the normal permissions', async () => {
    const g = gate({ runsChecks: false });
    for (const command of ['ls', 'cat x', 'git status', 'grep -r foo .', 'ls -la | head -5'])
      expect(await g.bash(command), command).toMatchObject({ behavior: 'allow' });
    expect(g.asked).toEqual([]);
  });

  it('refuses every command it cannot prove read-only, even in bypassPermissions, and says why', async () => {
    const g = gate({ runsChecks: false, mode: 'bypassPermissions' });
    for (const command of REFUSED) {
      const d = await g.bash(command);
      expect(d.behavior, command).toBe('deny');
      expect(d.behavior === 'deny' && d.message, command).toMatch(
        /^This command was refused: you are a read-only agent .*\(.+\)/,
      );
    }
    expect(g.asked).toEqual([]);
  });

  it('with runsChecks, hands other commands to the normal permissions: here the person is asked', async () => {
    const g = gate({ runsChecks: true });
    for (const command of ['npm test', ...REFUSED])
      expect(await g.bash(command), command).toMatchObject({ behavior: 'allow' });
    expect(g.asked.map((r) => r.summary)).toEqual(['npm test', ...REFUSED]);
    // Read-only commands need nobody.
    expect(await g.bash('git status')).toMatchObject({ behavior: 'allow' });
    expect(g.asked).toHaveLength(REFUSED.length + 1);
    // Still refused outright: the file-writing tools.
    expect(
      await g.run(tool('Write'), { file_path: path.join(g.ctx.projectRoot, 'a'), content: '' }),
    ).toMatchObject({ behavior: 'deny' });
  });

  it('keeps the inner gate’s deny rules for what it lets through', async () => {
    const g = gate({ runsChecks: true, deny: ['Bash(cat *)', 'Bash(make *)'] });
    expect(await g.bash('cat x')).toMatchObject({ behavior: 'deny' });
    expect(await g.bash('make build')).toMatchObject({ behavior: 'deny' });
    expect(await g.bash('ls')).toMatchObject({ behavior: 'allow' });
  });
});
