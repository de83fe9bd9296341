import { describe, expect, it } from 'vitest';
import { compileMatcher, HookSelector } from './match';
import type { ConfiguredHook } from './sources';
import type { HookHandler } from './schema';

const hook = (event: ConfiguredHook['event'], matcher: string, handler: HookHandler): ConfiguredHook => ({
  event,
  matcher,
  handler,
  source: 'user',
  file: '/u/settings.json',
});
const cmd = (command: string, extra: Partial<HookHandler> = {}): HookHandler =>
  ({ type: 'command', command, ...extra }) as HookHandler;
const where = { projectRoot: '/p', home: '/h', cwd: '/p' };

describe('compileMatcher', () => {
  it('matches all when absent, empty or *', () => {
    for (const m of ['', '*', '  ']) expect(compileMatcher(m).test('Anything')).toBe(true);
  });
  it('matches exact names and | lists exactly', () => {
    expect(compileMatcher('Bash').test('Bash')).toBe(true);
    expect(compileMatcher('Bash').test('BashX')).toBe(false);
    const list = compileMatcher('Edit|Write');
    expect([list.test('Edit'), list.test('Write'), list.test('NotebookEdit')]).toEqual([true, true, false]);
  });
  it('treats anything else as an unanchored RegExp', () => {
    const m = compileMatcher('Edit.*');
    expect(m.test('NotebookEdit')).toBe(true);
    expect(compileMatcher('^mcp__memory__.*').test('mcp__memory__save')).toBe(true);
  });
  it('an invalid RegExp never matches and says why', () => {
    const m = compileMatcher('(Bash');
    expect(m.test('(Bash')).toBe(false);
    expect(m.problem).toMatch(/not a valid regular expression/);
  });
});

describe('HookSelector', () => {
  it('selects by tool name, filters by `if`, and runs an identical handler once', () => {
    const hooks = [
      hook('PreToolUse', 'Bash', cmd('a')),
      hook('PreToolUse', 'Bash', cmd('git-only', { if: 'Bash(git *)' })),
      hook('PreToolUse', 'Edit', cmd('edit')),
      hook('PreToolUse', '', cmd('a')),
      hook('PostToolUse', 'Bash', cmd('post')),
    ];
    const s = new HookSelector(where);
    const names = (input: Record<string, unknown>, tool = 'Bash') =>
      s
        .select(hooks, 'PreToolUse', { toolName: tool, toolInput: input })
        .map((h) => (h.handler.type === 'command' ? h.handler.command : ''));
    expect(names({ command: 'ls -la' })).toEqual(['a']);
    expect(names({ command: 'git status' })).toEqual(['a', 'git-only']);
    expect(names({ command: 'cd x && git push' })).toEqual(['a', 'git-only']);
    expect(names({ file_path: 'src/x.ts' }, 'Edit')).toEqual(['edit', 'a']);
  });

  it('applies a path `if` the way permission rules do', () => {
    const s = new HookSelector(where);
    const hooks = [hook('PostToolUse', 'Edit|Write', cmd('ts', { if: 'Edit(src/**)' }))];
    expect(
      s.select(hooks, 'PostToolUse', { toolName: 'Edit', toolInput: { file_path: '/p/src/a.ts' } }),
    ).toHaveLength(1);
    expect(
      s.select(hooks, 'PostToolUse', { toolName: 'Edit', toolInput: { file_path: '/p/docs/a.md' } }),
    ).toHaveLength(0);
  });

  it('ignores the matcher of events that take none, and reports a bad matcher once', () => {
    const problems: string[] = [];
    const s = new HookSelector(where, (p) => problems.push(p));
    const hooks = [hook('Stop', 'whatever', cmd('stop')), hook('PreToolUse', '[', cmd('bad'))];
    expect(s.select(hooks, 'Stop', {})).toHaveLength(1);
    s.select(hooks, 'PreToolUse', { toolName: 'Bash', toolInput: {} });
    s.select(hooks, 'PreToolUse', { toolName: 'Bash', toolInput: {} });
    expect(problems).toHaveLength(1);
  });
});
