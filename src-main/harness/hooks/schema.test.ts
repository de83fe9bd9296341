import { describe, expect, it } from 'vitest';
import { HookConfigError, HooksBlock, parseHooksBlock } from './schema';

describe('hooks schema', () => {
  const block = {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: 'check.sh', timeout: 5, if: 'Bash(git *)' },
          { type: 'http', url: 'http://localhost:1/h', headers: { A: '$X' }, allowedEnvVars: ['X'] },
        ],
      },
    ],
    Stop: [
      {
        hooks: [
          { type: 'prompt', prompt: 'done?' },
          { type: 'agent', prompt: 'verify', timeout: 90 },
        ],
      },
    ],
  };

  it('reads every handler type and round-trips through JSON unchanged', () => {
    const parsed = HooksBlock.parse(block);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(block);
    const { entries, errors } = parseHooksBlock(block);
    expect(errors).toEqual([]);
    expect(entries.map((e) => [e.event, e.matcher, e.handler.type])).toEqual([
      ['PreToolUse', 'Bash', 'command'],
      ['PreToolUse', 'Bash', 'http'],
      ['Stop', '', 'prompt'],
      ['Stop', '', 'agent'],
    ]);
  });

  it('reports a malformed entry with its path and keeps the rest', () => {
    const { entries, errors } = parseHooksBlock({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }, { type: 'command', command: 'ok.sh' }] }],
      PostToolUse: [{ hooks: [{ type: 'shell', command: 'x' }] }],
      Nope: [],
      Stop: 'x',
      SessionStart: [{ matcher: 3, hooks: [] }],
    });
    expect(entries.map((e) => e.handler)).toEqual([{ type: 'command', command: 'ok.sh' }]);
    expect(errors.every((e) => e instanceof HookConfigError)).toBe(true);
    const paths = errors.map((e) => e.path);
    expect(paths).toContain('hooks.PreToolUse[0].hooks[0].command');
    expect(paths).toContain('hooks.PostToolUse[0].hooks[0].type');
    expect(paths).toContain('hooks.Nope');
    expect(paths).toContain('hooks.Stop');
    expect(paths).toContain('hooks.SessionStart[0].matcher');
    expect(parseHooksBlock(5).errors.map((e) => e.path)).toEqual(['hooks']);
  });

  it('the strict schema refuses an unknown event and a bad handler', () => {
    expect(HooksBlock.safeParse({ Nope: [] }).success).toBe(false);
    expect(HooksBlock.safeParse({ Stop: [{ hooks: [{ type: 'http', url: 'not a url' }] }] }).success).toBe(
      false,
    );
  });
});
