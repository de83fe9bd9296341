import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWriteDenials } from '../permissions/protected-paths';
import { SandboxService, secretPaths } from './sandbox';
import { SessionShell, type ShellRunResult } from './shell-executor';

/**
 * How long the long-lived sandboxed shell lives, and what it passes on while a command runs, with the
 * real node-pty and the real sandbox runtime: its placeholders for missing protected paths must not
 * stay in the person's project once the agent's work is over, and output must arrive as it comes.
 */

const sandbox = new SandboxService();
const available = (await sandbox.status()).available;
let project = '';

function newShell(idleMs?: number): SessionShell {
  return new SessionShell({
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: homedir() },
    sandbox,
    ...(idleMs !== undefined ? { idleMs } : {}),
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
}

async function run(shell: SessionShell, command: string): Promise<ShellRunResult> {
  const gen = shell.run(command, { cwd: project, timeoutMs: 20_000, signal: new AbortController().signal });
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
  }
}

/** bubblewrap's init (PID 1 of the sandbox) and its start time: the same for commands of one shell. */
const WHICH_SANDBOX = 'read -r -a f < /proc/1/stat; echo "${f[21]}"';

const placeholder = () => path.join(project, '.vscode');

describe.skipIf(!available)('the long-lived sandboxed shell: lifetime and live output', () => {
  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), 'carapace-shell-life-'));
    execFileSync('git', ['init', '-q', project]);
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('serves every command of a submit, and ends with it: no placeholder stays in the project', async () => {
    const shell = newShell(60_000);
    const letGo = shell.hold();
    const first = await run(shell, WHICH_SANDBOX);
    // The runtime's empty placeholder for the missing protected `.vscode` is there while it lives.
    expect(existsSync(placeholder())).toBe(true);
    const second = await run(shell, WHICH_SANDBOX);
    expect(second.output).toBe(first.output);
    letGo();
    await expect.poll(() => existsSync(placeholder())).toBe(false);
    // The next submit gets a new shell.
    const again = shell.hold();
    const third = await run(shell, WHICH_SANDBOX);
    expect(third.exitCode).toBe(0);
    expect(third.output).not.toBe(first.output);
    again();
    await expect.poll(() => existsSync(placeholder())).toBe(false);
    await shell.close();
  }, 60_000);

  it('a background command still running keeps it past the submit; it ends when that command ends', async () => {
    const shell = newShell(60_000);
    const letGo = shell.hold();
    // The command ends when the test says so: with 'sleep 1', a loaded machine could take that
    // second to start the sandbox, and the command had ended (rightly taking the placeholder with
    // it) before the check below.
    const background = run(shell, 'while [ ! -e bg-go ]; do sleep 0.05; done; echo bg');
    await expect.poll(() => existsSync(placeholder())).toBe(true);
    letGo();
    // A moment for a wrong release to take the shell down; it must not while the command runs.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(placeholder())).toBe(true);
    writeFileSync(path.join(project, 'bg-go'), '');
    expect((await background).output).toBe('bg\n');
    await expect.poll(() => existsSync(placeholder())).toBe(false);
    await shell.close();
  }, 60_000);

  it('ends after a while unused even when nobody says the work is over', async () => {
    const shell = newShell(500);
    expect((await run(shell, 'echo one')).output).toBe('one\n');
    expect(existsSync(placeholder())).toBe(true);
    await expect.poll(() => existsSync(placeholder())).toBe(false);
    expect((await run(shell, 'echo two')).output).toBe('two\n');
    await shell.close();
    expect(existsSync(placeholder())).toBe(false);
  }, 60_000);

  it('passes output on as it comes: the first line arrives while the command still runs', async () => {
    const shell = newShell();
    // The command goes on only once the test has seen its first line: output held back until the
    // end would never come, and the test fails on its timeout. (A timed check, "first line within
    // 2.5 s of a 3 s command", failed when a loaded machine was slow to start the command.)
    const go = path.join(project, 'go-on');
    const gen = shell.run('echo first; while [ ! -e go-on ]; do sleep 0.05; done; echo second', {
      cwd: project,
      timeoutMs: 20_000,
      signal: new AbortController().signal,
    });
    const step = await gen.next();
    expect(step.done).toBe(false);
    expect(step.value).toContain('first');
    expect(step.value).not.toContain('second');
    writeFileSync(go, '');
    let rest = '';
    for (;;) {
      const next = await gen.next();
      if (next.done) {
        expect(next.value).toMatchObject({ output: 'first\nsecond\n', exitCode: 0, sandboxed: true });
        break;
      }
      rest += next.value;
    }
    expect(rest).toContain('second');
    await shell.close();
  }, 60_000);

  it("a command's output is a terminal, so programs do not hold it back", async () => {
    const shell = newShell();
    const r = await run(shell, '[ -t 1 ] && echo stdout-tty; [ -t 2 ] && echo stderr-tty');
    expect(r.output).toBe('stdout-tty\nstderr-tty\n');
    await shell.close();
  }, 60_000);
});
