import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWriteDenials } from '../permissions/protected-paths';
import { SandboxService, secretPaths } from './sandbox';
import { processTree, stillRunning } from './sandbox-shell';
import { SessionShell, type ShellRunResult } from './shell-executor';

/**
 * The long-lived sandboxed shell against processes built to survive the clean-up between commands
 * (a security review's triggers): a process in a nested PID namespace, and a thread group whose main
 * thread has exited (its leader shows `State: Z` while its other threads run). None may outlive its
 * command: each writes a heartbeat file, and after its command it must have stopped beating.
 */

const sandbox = new SandboxService();
const available = (await sandbox.status()).available;
const haveTools = (() => {
  try {
    execFileSync(
      'sh',
      ['-c', 'command -v gcc && command -v perl && unshare --user --map-root-user --pid --fork true'],
      {
        stdio: 'ignore',
      },
    );
    return true;
  } catch {
    return false;
  }
})();
let project = '';
let shell: SessionShell;

async function run(command: string, timeoutMs = 20_000): Promise<ShellRunResult> {
  const gen = shell.run(command, { cwd: project, timeoutMs, signal: new AbortController().signal });
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function beat(name: string): string {
  try {
    return readFileSync(path.join(project, name), 'utf8');
  } catch {
    return '';
  }
}

/**
 * True if the heartbeat file still changes after its command is over. Every beat is written to a
 * side file and renamed into place: a beater killed between truncating and writing would otherwise
 * leave the file empty, which reads as "never beat".
 */
async function stillBeating(name: string): Promise<boolean> {
  const first = beat(name);
  // It did beat while its command ran (else this test proves nothing).
  expect(first, `${name} never beat`).not.toBe('');
  await sleep(600);
  return beat(name) !== first;
}

/** The bubblewrap init's start time: the same value means the same sandbox. */
const SANDBOX_ID = 'read -r -a f < /proc/1/stat; echo "${f[21]}"';

// A thread group that keeps running after its main thread called pthread_exit.
const ZOMBIE_LEADER = `#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void *beat(void *a) { char t[4096]; snprintf(t, sizeof t, "%s.t", (char *)a); for (long i = 0;; i++) { FILE *f = fopen(t, "w"); if (f) { fprintf(f, "%ld", i); fclose(f); rename(t, a); } usleep(50000); } }
int main(int c, char **v) { pthread_t t; if (c < 2) return 2; pthread_create(&t, 0, beat, v[1]); pthread_exit(0); }
`;

const PERL_BEAT = `perl -e 'for (my $i = 0;; $i++) { open my $f, ">", "$ARGV[0].t"; print $f $i; close $f; rename "$ARGV[0].t", $ARGV[0]; select undef, undef, undef, 0.05 }'`;

describe.skipIf(!available || !haveTools)('the long-lived sandboxed shell against survivors', () => {
  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), 'carapace-survivor-test-'));
    execFileSync('git', ['init', '-q', project]);
    mkdirSync(path.join(project, 'evil'));
    writeFileSync(path.join(project, 'zl.c'), ZOMBIE_LEADER);
    execFileSync('gcc', ['-pthread', '-o', path.join(project, 'zl'), path.join(project, 'zl.c')]);
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
    rmSync(`${project}-quarantine`, { recursive: true, force: true });
  });

  it('a process in a nested PID namespace does not outlive its command', async () => {
    const r = await run(
      `unshare --user --map-root-user --pid --fork ${PERL_BEAT} beat-ns & sleep 0.3; echo started`,
    );
    expect(r.output).toContain('started');
    expect(r.exitCode).toBe(0);
    expect(await stillBeating('beat-ns')).toBe(false);
    expect(await run('echo next')).toMatchObject({ output: 'next\n', exitCode: 0 });
  }, 60_000);

  it('a thread group whose main thread exited does not outlive its command', async () => {
    const r = await run('./zl beat-z & sleep 0.3; echo started');
    expect(r.output).toContain('started');
    expect(await stillBeating('beat-z')).toBe(false);
    expect(await run('echo next')).toMatchObject({ output: 'next\n', exitCode: 0 });
  }, 60_000);

  it('a survivor cannot change .git between commands', async () => {
    const r = await run(
      `unshare --user --map-root-user --pid --fork perl -e 'sleep 1; open my $f, ">", ".git/commondir"; print $f "../evil\\n"' & sleep 0.3; echo started`,
    );
    expect(r.output).toContain('started');
    await sleep(1500);
    await run('true');
    // The same write during a command is possible (the git guard's business): the test can fail.
    expect(await run('echo ../evil > .git/commondir-probe && echo wrote')).toMatchObject({
      output: 'wrote\n',
    });
    expect(existsSync(path.join(project, '.git', 'commondir'))).toBe(false);
  }, 60_000);

  it('a command is over only when its jobs are: the git guard sees what they did', async () => {
    rmSync(path.join(project, '.git', 'commondir'), { force: true });
    // Its end marker early (the trap's function, from a subshell), then a write into .git.
    const r = await run(
      '( __carapace_end ); (sleep 0.3; echo ../evil > .git/commondir) & sleep 0.6; echo late',
    );
    await run('true');
    expect(existsSync(path.join(project, '.git', 'commondir'))).toBe(false);
    expect(r.notes?.join(' ')).toMatch(/commondir/);
  }, 60_000);

  it('a command that goes on after its end marker still has its timeout', async () => {
    const started = Date.now();
    const r = await run('( __carapace_end ); sleep 30', 800);
    expect(r).toMatchObject({ timedOut: true, exitCode: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await run('echo next')).toMatchObject({ output: 'next\n', exitCode: 0 });
  }, 60_000);

  it('a process that keeps changing its number (fork, parent exits) does not outlive its command', async () => {
    const hop = `perl -e 'my $n = 0; while (1) { exit if fork; if (++$n % 10 == 1) { open my $f, ">", "beat-hop.t"; print $f $n; close $f; rename "beat-hop.t", "beat-hop" } }'`;
    const r = await run(
      `${hop} & for i in $(seq 100); do [ -s beat-hop ] && break; sleep 0.05; done; echo started`,
    );
    expect(r.output).toContain('started');
    expect(await stillBeating('beat-hop')).toBe(false);
  }, 60_000);

  it('a background job the clean-up kills costs no new sandbox', async () => {
    const before = await run(SANDBOX_ID);
    await run('sleep 100 & (sleep 100 &) ; setsid sleep 100 & echo started');
    const after = await run(SANDBOX_ID);
    expect(after.output).toBe(before.output);
  }, 60_000);
});

describe.skipIf(process.platform !== 'linux' || !haveTools)("the host's view of a process tree", () => {
  it('holds processes in nested PID namespaces and thread groups whose main thread exited', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'carapace-tree-test-'));
    writeFileSync(path.join(dir, 'zl.c'), ZOMBIE_LEADER);
    execFileSync('gcc', ['-pthread', '-o', path.join(dir, 'zl'), path.join(dir, 'zl.c')]);
    const { spawn } = await import('node:child_process');
    const root = spawn(
      'bash',
      ['-c', `unshare --user --map-root-user --pid --fork sleep 30 & ./zl beat & wait`],
      { cwd: dir, stdio: 'ignore' },
    );
    const read = (file: string) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    };
    try {
      // Wait for the state under test, not for a fixed time: on a loaded machine `unshare` may not
      // have exec'd sleep yet, or zl's main thread not exited, after any fixed delay.
      let tree: Map<number, string> | null = null;
      let names: string[] = [];
      let zl: number | undefined;
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50)) {
        tree = processTree(root.pid as number);
        const pids = [...(tree?.keys() ?? [])];
        names = pids.map((p) => read(`/proc/${p}/comm`).trim());
        zl = pids.find((p) => read(`/proc/${p}/status`).includes('State:\tZ'));
        if (names.includes('sleep') && zl !== undefined) break;
      }
      expect(tree).not.toBeNull();
      expect(names).toContain('sleep');
      expect(zl, 'the main thread of zl has exited').toBeDefined();
      expect(stillRunning(zl as number)).toBe(true);
    } finally {
      for (const p of processTree(root.pid as number)?.keys() ?? []) process.kill(p, 'SIGKILL');
      root.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
