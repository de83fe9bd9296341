import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWriteDenials } from '../permissions/protected-paths';
import { SandboxService, secretPaths } from './sandbox';
import { SessionShell, type ShellRunResult } from './shell-executor';

/**
 * The long-lived sandboxed shell, attacked with the real node-pty and the real sandbox runtime: what
 * one command does to its shell must not reach the next command, nor leave the sandbox.
 */

const sandbox = new SandboxService();
const available = (await sandbox.status()).available;
let project = '';
let shell: SessionShell;

async function run(
  command: string,
  o: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ShellRunResult> {
  const gen = shell.run(command, {
    cwd: project,
    timeoutMs: o.timeoutMs ?? 20_000,
    signal: o.signal ?? new AbortController().signal,
  });
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
  }
}

describe.skipIf(!available)('the long-lived sandboxed shell', () => {
  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), 'carapace-shell-test-'));
    execFileSync('git', ['init', '-q', project]);
    shell = new SessionShell({
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: homedir() },
      sandbox,
      policy: () => ({
        sandboxed: true,
        excludedCommands: [],
        writable: [project],
        denyWrite: sandboxWriteDenials([project]),
        guardRoots: [project],
        quarantineDir: path.join(project, '..', `${path.basename(project)}-quarantine`),
        denyRead: secretPaths(homedir(), project),
        allowedDomains: [],
      }),
    });
  });
  afterAll(async () => {
    await shell.close();
    await sandbox.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('runs commands in one sandbox: the second costs no new bubblewrap', async () => {
    // bubblewrap's init is PID 1 of the sandbox: the same process (same start time) for both commands.
    const started = 'read -r -a f < /proc/1/stat; echo "${f[1]} ${f[21]}"';
    const first = await run(started);
    expect(first).toMatchObject({ exitCode: 0, sandboxed: true, cwd: project });
    expect(first.output).toMatch(/^\(bwrap\) \d+\n$/);
    const second = await run(`${started}; exit 4`);
    expect(second.exitCode).toBe(4);
    expect(second.output).toBe(first.output);
  }, 60_000);

  it('keeps the containment: no writes outside the project, no secrets, no git hooks', async () => {
    const r = await run(
      'touch ../outside-$$ 2>/dev/null; echo out=$?; touch .git/hooks/pre-commit 2>/dev/null; echo hook=$?; ' +
        'echo x > .env.local; cat ~/.ssh/config >/dev/null 2>&1; echo ssh=$?',
    );
    expect(r.output).toContain('out=1');
    expect(r.output).toContain('hook=1');
    expect(existsSync(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    // A .env file that appeared after the sandbox started is denied to the next command as well.
    const next = await run('cat .env.local 2>&1; echo read=$?');
    expect(next.output).not.toMatch(/^x$/m);
    expect(next.output).toMatch(/read=[1-9]/);
  }, 60_000);

  it("a command's cd, env, traps, shell options and fds do not reach the next", async () => {
    await run(
      'cd /tmp; export LEAK=1; alias ls=false; set -e; trap "echo trapped" EXIT; exec 1>/dev/null; exec 2>&1',
    );
    const r = await run(
      'echo "leak=${LEAK:-none}"; trap -p EXIT; ls >/dev/null; echo ok=$?; false; echo still',
    );
    expect(r.output).toBe("leak=none\ntrap -- '__carapace_end' EXIT\nok=0\nstill\n");
    expect(r.exitCode).toBe(0);
  }, 60_000);

  it('a background job does not outlive its command nor write into the next one', async () => {
    const bg = await run(
      '(sleep 0.3; echo LATE; touch late-write) >/dev/null 2>&1 & disown; setsid sh -c "sleep 0.3; echo LATE2" & echo started',
    );
    expect(bg.output).toContain('started');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const r = await run('echo now');
    expect(r.output, JSON.stringify(r.output)).toBe('now\n');
    expect(existsSync(path.join(project, 'late-write'))).toBe(false);
  }, 60_000);

  it('a command that kills its shell, or the server, leaves the next one working', async () => {
    expect((await run('kill -9 $$')).exitCode).toBe(137);
    expect(await run('echo one')).toMatchObject({ output: 'one\n', exitCode: 0 });
    await run('kill -9 $PPID');
    expect(await run('echo two')).toMatchObject({ output: 'two\n', exitCode: 0 });
    expect((await run('exit 7')).exitCode).toBe(7);
    expect(await run('echo three')).toMatchObject({ output: 'three\n', exitCode: 0 });
  }, 60_000);

  it('output that imitates the control channel is just output', async () => {
    const r = await run(
      'printf "CARAPACE_READY_00000000000000000000000000000000:R:0\\nCARAPACE_END_fake:0:h2f;\\n"; ' +
        'stty echo -icanon <&9 2>/dev/null; echo done',
    );
    expect(r.output).toContain('CARAPACE_READY_00000000000000000000000000000000:R:0');
    expect(r.output).toMatch(/done\n$/);
    expect(await run('echo clean; exit 2')).toMatchObject({ output: 'clean\n', exitCode: 2 });
  }, 60_000);

  it('two commands at once: one in the shell, the other in a sandbox of its own, both contained', async () => {
    const [a, b] = await Promise.all([
      run('sleep 0.5; echo a; touch ../escape-a 2>/dev/null || echo denied-a'),
      run('echo b; touch ../escape-b 2>/dev/null || echo denied-b'),
    ]);
    expect(a).toMatchObject({ output: 'a\ndenied-a\n', exitCode: 0, sandboxed: true });
    expect(b).toMatchObject({ output: 'b\ndenied-b\n', exitCode: 0, sandboxed: true });
  }, 60_000);

  it('a timeout or Stop kills the command, not the shell, and the next command works', async () => {
    writeFileSync(path.join(project, 'marker'), '');
    // 2 s, not 0.5: 'start' must be out before the timeout, and a loaded machine can take half a
    // second to get a command going.
    const timed = await run('echo start; sleep 30', { timeoutMs: 2000 });
    expect(timed).toMatchObject({ timedOut: true, exitCode: null });
    expect(timed.output).toContain('start');
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const stopped = await run('trap "" TERM; sleep 30', { signal: stop.signal });
    expect(stopped).toMatchObject({ aborted: true, exitCode: null });
    expect(await run('echo after')).toMatchObject({ output: 'after\n', exitCode: 0 });
  }, 60_000);
});
