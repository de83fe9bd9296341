import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { sanitizeEnv } from '../../platform/env';
import { analyzeCommandSync } from './analyze';
import { exclusionWords, insideNestedRepository, runsOutsideSandbox } from './excluded';
import { SandboxService } from './sandbox';
import { SessionShell, type ShellRunResult } from './shell-executor';
import { loadBashParser } from './tree-sitter';

beforeAll(() => loadBashParser());

const outside = (command: string, entries: string[]) =>
  runsOutsideSandbox(analyzeCommandSync(command), entries);

describe('which command lines excludedCommands take out of the sandbox', () => {
  it('reads entries as words, dropping a rule-style tail', () => {
    expect(exclusionWords('git')).toEqual(['git']);
    expect(exclusionWords(' docker  compose ')).toEqual(['docker', 'compose']);
    expect(exclusionWords('git *')).toEqual(['git']);
    expect(exclusionWords('npm run:*')).toEqual(['npm', 'run']);
    expect(exclusionWords('  ')).toEqual([]);
  });

  it('takes out a line only when every command on it is excluded', () => {
    expect(outside('git --version', ['git'])).toBe(true);
    expect(outside('git status && git log -1', ['git'])).toBe(true);
    expect(outside('docker compose up', ['docker compose'])).toBe(true);
    // The breach: the first word was excluded, and the whole line ran outside.
    expect(outside('git --version; cat ~/.ssh/id_rsa', ['git'])).toBe(false);
    expect(outside('git log | cat', ['git'])).toBe(false);
    expect(outside('docker run x', ['docker compose'])).toBe(false);
  });

  it('matches words of the command, never the raw text', () => {
    expect(outside('gitk', ['git'])).toBe(false);
    expect(outside('./git status', ['git'])).toBe(false);
    expect(outside('git', ['git status'])).toBe(false);
  });

  it('keeps in the sandbox what the analysis cannot fully account for', () => {
    for (const command of [
      'git log $(cat ~/.ssh/id_rsa)',
      'git log `id`',
      'git log > ~/.bashrc',
      '(git status)',
      'GIT_PAGER="cat ~/.ssh/id_rsa" git log',
      'PATH=. git status',
      'env git status',
      'timeout 5 git status',
      '[ -f ~/.ssh/id_rsa ] && git status',
      'git status &',
      'git "st',
    ])
      expect(outside(command, ['git']), command).toBe(false);
    expect(outside('git status', [])).toBe(false);
  });

  it('keeps git pointed at another repository in the sandbox: that repository’s config may be the agent’s', () => {
    for (const command of [
      'git -C sub status',
      'git -Csub status',
      'git --git-dir=sub/.git status',
      'git --work-tree sub status',
      'git --exec-path=./bin status',
    ])
      expect(outside(command, ['git']), command).toBe(false);
    // Control: plain git at the project's own repository is still excluded.
    expect(outside('git status --short', ['git'])).toBe(true);
  });

  it('a working directory inside a repository nested in the project counts as elsewhere', () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'a', 'b', 'c', 'd', '.git'), { recursive: true });
    mkdirSync(path.join(root, 'src', 'lib'), { recursive: true });
    expect(insideNestedRepository(path.join(root, 'a', 'b', 'c', 'd'), [root])).toBe(true);
    mkdirSync(path.join(root, 'a', 'b', 'c', 'd', 'e'));
    expect(insideNestedRepository(path.join(root, 'a', 'b', 'c', 'd', 'e'), [root])).toBe(true);
    expect(insideNestedRepository('/usr/bin', [root])).toBe(true);
    // Controls: the root and its ordinary folders.
    expect(insideNestedRepository(root, [root])).toBe(false);
    expect(insideNestedRepository(path.join(root, 'src', 'lib'), [root])).toBe(false);
  });
});

describe('SessionShell with excludedCommands, in the real sandbox', () => {
  const sandbox = new SandboxService();
  afterAll(() => sandbox.close());

  async function run(command: string, project: string, secret: string): Promise<ShellRunResult> {
    const shell = new SessionShell({
      env: sanitizeEnv(process.env),
      sandbox,
      policy: () => ({
        sandboxed: true,
        excludedCommands: ['git'],
        writable: [project],
        denyRead: [path.dirname(secret)],
        allowedDomains: [],
      }),
    });
    const it = shell.run(command, { cwd: project, timeoutMs: 20_000, signal: new AbortController().signal });
    for (;;) {
      const step = await it.next();
      if (step.done) return step.value;
    }
  }

  it('runs a line that only starts with an excluded command inside the sandbox, where the secret is unreadable', async () => {
    const project = tempDir('carapace-excluded-project-');
    const home = tempDir('carapace-excluded-home-');
    mkdirSync(path.join(home, '.ssh'));
    const secret = path.join(home, '.ssh', 'id_ed25519');
    writeFileSync(secret, 'EXCLUDED-SECRET-123\n');
    const elsewhere = tempDir('carapace-excluded-outside-');

    const mixed = await run(`git init -q ${elsewhere}/mixed; cat ${secret}`, project, secret);
    expect(mixed.sandboxed).toBe(true);
    expect(mixed.output).not.toContain('EXCLUDED-SECRET-123');
    // Inside the sandbox git could not write outside the project either.
    expect(existsSync(path.join(elsewhere, 'mixed', '.git'))).toBe(false);

    // Control: the excluded command alone runs outside the sandbox, so it can write outside the project.
    const alone = await run(`git init -q ${elsewhere}/alone`, project, secret);
    expect(alone.sandboxed).toBe(false);
    expect(existsSync(path.join(elsewhere, 'alone', '.git'))).toBe(true);
  });
});
