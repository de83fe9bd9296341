import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../bash/tree-sitter';
import { plainShell } from '../bash/shell-executor';
import { TaskManager } from '../tasks/task-manager';
import { runTool, text } from '../../test-support/run-tool';
import { toolContext } from '../../test-support/tool-context';
import { BashTool } from './bash';
import { BashOutputTool, KillShellTool } from './task-tools';
import type { ToolUseContext } from './tool';

beforeAll(async () => {
  await loadBashParser();
});

/** Runs Bash and applies its context change, as the loop does. */
async function bash(ctx: ToolUseContext, input: Record<string, unknown>) {
  const out = await runTool(BashTool, input, ctx);
  return { out, ctx: out.contextModifier ? out.contextModifier(ctx) : ctx };
}

describe('Bash (real PTY)', () => {
  it('runs in a terminal, streams output, and reports the exit code', async () => {
    const ctx = toolContext();
    const { out } = await bash(ctx, { command: 'test -t 1 && echo "a tty"; printf "one\\ntwo\\n"; exit 3' });
    expect(text(out)).toBe('a tty\none\ntwo\n[Exit code 3]');
    expect(out.isError).toBe(true);
    expect(out.progress.join('')).toContain('two');
    expect(out.display).toMatchObject({ kind: 'bash', exitCode: 3, timedOut: false, sandboxed: false });
  });

  it('carries a cd over to the next command, and stays put when a command fails', async () => {
    let ctx = toolContext();
    mkdirSync(path.join(ctx.projectRoot, 'a', 'b'), { recursive: true });
    ({ ctx } = await bash(ctx, { command: 'cd a/b' }));
    expect(ctx.cwd).toBe(path.join(ctx.projectRoot, 'a', 'b'));
    const { out } = await bash(ctx, { command: 'pwd' });
    expect(text(out)).toBe(path.join(ctx.projectRoot, 'a', 'b'));
    ({ ctx } = await bash(ctx, { command: 'cd ../..; false' }));
    expect(ctx.cwd).toBe(ctx.projectRoot);
  });

  it('kills the whole process tree on timeout', async () => {
    const ctx = toolContext();
    const marker = path.join(ctx.projectRoot, 'late');
    // A grandchild that would write after the timeout if it survived.
    const { out } = await bash(ctx, { command: `(sleep 2; touch ${marker}) & sleep 30`, timeout: 300 });
    expect(text(out)).toContain('[Command timed out after 300 ms; the process tree was killed]');
    // Killed: no exit code (the shell's own status would be the last command's, not this one's).
    expect(out.display).toMatchObject({ timedOut: true, exitCode: null });
    await new Promise((r) => setTimeout(r, 2500));
    expect(existsSync(marker)).toBe(false);
  });

  it('stops at once when the turn is aborted', async () => {
    const abort = new AbortController();
    const ctx = toolContext({ abortSignal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    const started = Date.now();
    const { out } = await bash(ctx, { command: 'sleep 30' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(text(out)).toContain('[Command interrupted]');
  });

  it('passes no API key to commands', async () => {
    process.env['ANTHROPIC_API_KEY'] = 'sk-should-not-leak';
    try {
      const ctx = toolContext();
      const { out } = await bash(ctx, { command: 'env' });
      expect(text(out)).toContain('PATH=');
      expect(text(out)).not.toContain('sk-should-not-leak');
    } finally {
      delete process.env['ANTHROPIC_API_KEY'];
    }
  });

  it('never loses the end of a large output (node-pty can drop it at exit)', async () => {
    const ctx = toolContext();
    for (let i = 0; i < 5; i++) {
      const { out } = await bash(ctx, { command: 'head -c 1500000 /dev/zero | tr "\\0" x; echo; echo END' });
      expect(text(out).length).toBe(1_500_004);
      expect(text(out).endsWith('x\nEND')).toBe(true);
    }
  });

  it('keeps its end-of-command marker out of the output, even under xtrace', async () => {
    const { out } = await bash(toolContext(), { command: 'set -x; echo hi' });
    expect(text(out)).toContain('hi');
    expect(text(out)).not.toMatch(/CARAPACE_END_[0-9a-f]+:\d+;/);
  });

  it('gives commands no input, so nothing waits for a prompt; the marker never lands in redirected output', async () => {
    const ctx = toolContext();
    const { out } = await bash(ctx, {
      command: 'cat; read -r answer; echo "got [$answer]"',
      timeout: 20_000,
    });
    expect(text(out)).toBe('got []');
    const log = path.join(ctx.projectRoot, 'log.txt');
    const redirected = await bash(ctx, { command: `exec > ${log} 2>&1; echo into-the-log` });
    expect(text(redirected.out)).toBe('(no output)');
    expect(readFileSync(log, 'utf8')).toBe('into-the-log\n');
  });

  it('falls back to the project root when the working directory has been removed', async () => {
    let ctx = toolContext();
    mkdirSync(path.join(ctx.projectRoot, 'gone'));
    ({ ctx } = await bash(ctx, { command: 'cd gone' }));
    rmSync(path.join(ctx.projectRoot, 'gone'), { recursive: true });
    const { out, ctx: next } = await bash(ctx, { command: 'pwd' });
    expect(text(out)).toContain('no longer exists; ran in the project root');
    expect(text(out)).toContain(ctx.projectRoot);
    expect(next.cwd).toBe(ctx.projectRoot);
  });

  it('marks a quiet command read-only for the transcript, and a "search" that writes as not', async () => {
    const ctx = toolContext();
    expect((await bash(ctx, { command: 'ls' })).out.display).toMatchObject({
      category: 'list',
      readOnly: true,
    });
    expect((await bash(ctx, { command: 'find . -name nothing -delete' })).out.display).toMatchObject({
      readOnly: false,
    });
  });

  it('refuses a timeout over 600 s', () => {
    expect(() => BashTool.inputSchema.parse({ command: 'ls', timeout: 600_001 })).toThrow();
  });

  it('strips terminal colours from what the model reads', async () => {
    const { out } = await bash(toolContext(), { command: 'printf "\\033[31mred\\033[0m plain\\n"' });
    expect(text(out)).toBe('red plain');
  });
});

describe('background tasks (BashOutput, KillShell)', () => {
  function taskContext() {
    const ctx = toolContext();
    const changes: string[] = [];
    const tasks = new TaskManager('s1', plainShell(ctx.env), {
      onChange: (t) => changes.push(`${t.id}:${t.status}`),
    });
    return { ctx: { ...ctx, tasks }, tasks, changes };
  }

  it('starts a task, reads only new output each time, and reports the end', async () => {
    const { ctx, tasks, changes } = taskContext();
    // The task goes on only once its first line has been read: after a fixed sleep, a loaded
    // machine could read both lines at once, and the second read then had nothing new.
    const { out } = await bash(ctx, {
      command: 'echo first; while [ ! -e go-on ]; do sleep 0.05; done; echo second',
      run_in_background: true,
    });
    const id = /task (bash_[0-9a-f]+)/.exec(text(out))?.[1] ?? '';
    expect(id).not.toBe('');
    await expect.poll(() => tasks.list()[0]?.outputTail ?? '').toContain('first');
    const first = await runTool(BashOutputTool, { bash_id: id }, ctx);
    expect(text(first)).toContain('first');
    expect(text(first)).not.toContain('second');
    writeFileSync(path.join(ctx.cwd, 'go-on'), '');
    await expect.poll(() => tasks.list()[0]?.status).toBe('completed');
    const second = await runTool(BashOutputTool, { bash_id: id }, ctx);
    expect(text(second)).toContain('<status>completed (exit code 0)</status>');
    expect(text(second)).toContain('second');
    expect(text(second)).not.toContain('first');
    expect(changes).toEqual([`${id}:running`, `${id}:completed`]);
  });

  it('filters output by a regular expression and refuses an invalid one', async () => {
    const { ctx, tasks } = taskContext();
    const task = tasks.startBash('printf "ok 1\\nerror 2\\nok 3\\n"', {
      cwd: ctx.cwd,
      description: 'print',
    });
    await expect.poll(() => tasks.list()[0]?.status).toBe('completed');
    expect(text(await runTool(BashOutputTool, { bash_id: task.id, filter: '^ok' }, ctx))).toMatch(
      /ok 1\nok 3/,
    );
    const bad = await runTool(BashOutputTool, { bash_id: task.id, filter: '(' }, ctx);
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('not a valid regular expression');
  });

  it('KillShell stops a running task; an unknown id is an error', async () => {
    const { ctx, tasks } = taskContext();
    const task = tasks.startBash('sleep 30', { cwd: ctx.cwd, description: 'sleep' });
    const killed = await runTool(KillShellTool, { shell_id: task.id }, ctx);
    expect(text(killed)).toBe(`Stopped background task ${task.id}.`);
    await expect.poll(() => tasks.list()[0]?.status).toBe('killed');
    expect((await runTool(KillShellTool, { shell_id: 'bash_nope' }, ctx)).isError).toBe(true);
    expect((await runTool(BashOutputTool, { bash_id: 'bash_nope' }, ctx)).isError).toBe(true);
  });

  it('tasks end with their session', async () => {
    const { ctx, tasks } = taskContext();
    const marker = path.join(ctx.projectRoot, 'survived');
    tasks.startBash(`sleep 1.5; touch ${marker}`, { cwd: ctx.cwd, description: 'a' });
    tasks.startBash('sleep 30', { cwd: ctx.cwd, description: 'b' });
    await tasks.killAll();
    expect(tasks.list().map((t) => t.status)).toEqual(['killed', 'killed']);
    await new Promise((r) => setTimeout(r, 2000));
    expect(existsSync(marker)).toBe(false);
  });

  it('keeps a bounded amount of output and tells the model what it missed', async () => {
    const { ctx, tasks } = taskContext();
    const task = tasks.startBash('head -c 1500000 /dev/zero | tr "\\0" x; echo; echo END', {
      cwd: ctx.cwd,
      description: 'flood',
    });
    await expect.poll(() => tasks.list()[0]?.status, { timeout: 10_000 }).toBe('completed');
    const read = await runTool(BashOutputTool, { bash_id: task.id }, ctx);
    expect(text(read)).toMatch(/\[\d+ older characters were dropped before you read them\]/);
    expect(text(read)).toContain('END');
  });
});
