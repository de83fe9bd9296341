import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { HookRunner, type HookRunRecord } from './dispatch';
import type { HookHandler } from './schema';
import type { ConfiguredHook } from './sources';

function runner(hooks: [ConfiguredHook['event'], string, HookHandler][]) {
  const dir = tempDir('hook-dispatch-');
  const records: HookRunRecord[] = [];
  const configured: ConfiguredHook[] = hooks.map(([event, matcher, handler]) => ({
    event,
    matcher,
    handler,
    source: 'project',
    file: path.join(dir, '.claude/settings.json'),
  }));
  const r = new HookRunner({
    hooks: () => configured,
    sessionId: 's1',
    transcriptPath: path.join(dir, 's1.jsonl'),
    projectDir: dir,
    cwd: () => dir,
    permissionMode: () => 'default',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    home: dir,
    onRecord: (rec) => records.push(rec),
  });
  return { r, dir, records };
}
const cmd = (command: string, extra: object = {}): HookHandler => ({ type: 'command', command, ...extra });
const pre = { toolName: 'Bash', toolInput: { command: 'ls' } };
const preFields = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' };

describe('HookRunner', () => {
  it('runs matching hooks in parallel', async () => {
    // Each waits for the other's file: run one after the other, both would time out.
    const wait = (mine: string, other: string) =>
      cmd(`touch ${mine}; while [ ! -f ${other} ]; do sleep 0.02; done`, { timeout: 5 });
    const { r, records } = runner([
      ['PreToolUse', 'Bash', wait('a', 'b')],
      ['PreToolUse', 'Bash', wait('b', 'a')],
    ]);
    await r.run('PreToolUse', pre, preFields);
    expect(records.map((x) => x.outcome)).toEqual(['ok', 'ok']);
    expect(records[0]).toMatchObject({ event: 'PreToolUse', toolName: 'Bash', toolUseId: 't1' });
  });

  it('deny wins over ask and allow', async () => {
    const json = (d: string) =>
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${d}","permissionDecisionReason":"${d} reason"}}'`;
    const { r } = runner([
      ['PreToolUse', 'Bash', cmd(json('allow'))],
      ['PreToolUse', '*', cmd(json('deny'))],
      ['PreToolUse', 'Bash', cmd(json('ask'))],
    ]);
    const out = await r.run('PreToolUse', pre, preFields);
    expect(out.permission).toMatchObject({ decision: 'deny', reason: 'deny reason', source: 'project' });
    expect(out.permission?.file).toMatch(/\.claude\/settings\.json$/);
    expect(out.blocked).toBe('deny reason');
    const askOnly = await runner([
      ['PreToolUse', 'Bash', cmd(json('allow'))],
      ['PreToolUse', 'Bash', cmd(json('ask'))],
    ]).r.run('PreToolUse', pre, preFields);
    expect(askOnly.permission?.decision).toBe('ask');
  });

  it('exit 2 blocks with stderr even when the JSON says allow; another exit fails open', async () => {
    const blocked = await runner([
      [
        'PreToolUse',
        'Bash',
        cmd(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; echo nope >&2; exit 2`),
      ],
    ]).r.run('PreToolUse', pre, preFields);
    expect(blocked.blocked).toBe('nope');
    expect(blocked.permission?.decision).toBe('deny');
    const open = await runner([['PreToolUse', 'Bash', cmd('echo crash >&2; exit 1')]]).r.run(
      'PreToolUse',
      pre,
      preFields,
    );
    expect([open.blocked, open.permission]).toEqual([null, null]);
    expect(open.messages).toEqual(['PreToolUse hook (echo crash >&2; exit 1) error: exited with 1: crash']);
  });

  it('updatedInput, additionalContext, systemMessage and continue:false come through', async () => {
    const out = await runner([
      [
        'PreToolUse',
        'Bash',
        cmd(
          `echo '{"continue":false,"stopReason":"halt","systemMessage":"careful","hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -a"},"additionalContext":"ctx"}}'`,
        ),
      ],
    ]).r.run('PreToolUse', pre, preFields);
    expect(out.updatedInput).toEqual({ command: 'ls -a' });
    expect(out.context).toEqual(['ctx']);
    expect(out.messages).toEqual(['careful']);
    expect(out.stop).toEqual({ reason: 'halt' });
    expect(out.permission?.decision).toBe('allow');
  });

  it('plain stdout is context for UserPromptSubmit only; decision block blocks Stop', async () => {
    const { r } = runner([
      ['UserPromptSubmit', '', cmd('echo "the date is today"')],
      ['PostToolUse', 'Bash', cmd('echo "ignored"')],
      ['Stop', '', cmd(`echo '{"decision":"block","reason":"run the tests"}'`)],
    ]);
    expect((await r.run('UserPromptSubmit', {}, { prompt: 'hi' })).context).toEqual(['the date is today']);
    expect((await r.run('PostToolUse', pre, preFields)).context).toEqual([]);
    expect((await r.run('Stop', {}, { stop_hook_active: false })).blocked).toBe('run the tests');
  });

  it('an identical handler runs once; an async hook is not waited for; prompt hooks without the session model are recorded as skipped', async () => {
    const { r, dir, records } = runner([
      ['Stop', '', cmd('echo x >> count')],
      ['Stop', '', cmd('echo x >> count')],
      ['Stop', '', cmd('sleep 0.5; touch async-done', { async: true })],
      ['Stop', '', { type: 'prompt', prompt: 'ok?' }],
    ]);
    const out = await r.run('Stop', {}, {});
    expect(readFileSync(path.join(dir, 'count'), 'utf8')).toBe('x\n');
    expect(existsSync(path.join(dir, 'async-done'))).toBe(false);
    expect(out.messages[0]).toMatch(/prompt hooks need the session's model/);
    expect(records.map((x) => x.outcome).sort()).toEqual(['ok', 'skipped']);
  });

  it('gives the hook the common fields on stdin', async () => {
    const { r, dir } = runner([['PreToolUse', 'Bash', cmd('cat > input.json')]]);
    await r.run('PreToolUse', pre, preFields);
    expect(JSON.parse(readFileSync(path.join(dir, 'input.json'), 'utf8'))).toEqual({
      session_id: 's1',
      transcript_path: path.join(dir, 's1.jsonl'),
      cwd: dir,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      ...preFields,
    });
  });
});
