import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SECRET, bash, runScripted, type Dirs } from '../fixtures/scripted-run';

/**
 * Bash containment through the real `carapace -p`, real bubblewrap and the scripted Messages API: a
 * hostile model's commands, run for real. excludedCommands take a line out of the sandbox only when
 * every command on it is excluded; a command hiding a write is not taken for read-only; unsandboxed,
 * a read-only command reading outside the project asks as Read does.
 */

/** The person's own settings (~/.carapace/settings.json): trusted without asking. */
const userSettings = (settings: object) => (d: Dirs) =>
  writeFileSync(path.join(d.data, 'settings.json'), JSON.stringify(settings));

const deniedCommands = (denied: { tool_input: Record<string, unknown> }[]) =>
  denied.map((d) => d.tool_input['command']);

test('excludedCommands ["git"]: a line that only starts with git runs sandboxed and cannot read ~/.ssh; git alone runs outside the sandbox', async () => {
  const r = await runScripted(
    ({ home, outside }) => [
      bash(`git --version; cat ${home}/.ssh/id_ed25519; echo "read=$?"`),
      bash(`git init -q ${outside}/mixed; cat ~/.ssh/id_ed25519`),
      // Control: git alone is excluded, so it can write where the sandbox would not let it.
      bash(`git init -q ${outside}/alone`),
    ],
    {
      args: ['--permission-mode', 'bypassPermissions'],
      setup: userSettings({ sandbox: { excludedCommands: ['git'] } }),
    },
  );
  try {
    expect(r.denied).toEqual([]);
    const [mixed, second] = r.results;
    expect(mixed).toContain('git version');
    expect(mixed).toMatch(/read=[1-9]/);
    expect(second).not.toContain(SECRET);
    expect(r.requests).not.toContain(SECRET);
    expect(existsSync(path.join(r.outside, 'mixed', '.git'))).toBe(false);
    expect(existsSync(path.join(r.outside, 'alone', '.git'))).toBe(true);
  } finally {
    r.cleanup();
  }
});

test('xxd IN OUT is not read-only: refused in -p default mode and no file appears; xxd IN alone runs', async () => {
  const r = await runScripted(
    () => [bash('xxd in.txt out.bin'), bash('xxd - pwned < in.txt'), bash('xxd in.txt')],
    {
      args: ['--permission-mode', 'default'],
      setup: ({ project }) => writeFileSync(path.join(project, 'in.txt'), 'hello\n'),
    },
  );
  try {
    expect(deniedCommands(r.denied)).toEqual(['xxd in.txt out.bin', 'xxd - pwned < in.txt']);
    expect(existsSync(path.join(r.project, 'out.bin'))).toBe(false);
    expect(existsSync(path.join(r.project, 'pwned'))).toBe(false);
    expect(r.results[0]).toContain('`xxd IN OUT` writes OUT');
    expect(r.results[2]).toContain('6865 6c6c 6f0a');
  } finally {
    r.cleanup();
  }
});

test('with the sandbox off, cat ~/.ssh/id_ed25519 (directly, through a link or after a cd) is refused in default mode; cat inside.txt runs', async () => {
  const r = await runScripted(
    ({ home }) => [
      bash('cat ~/.ssh/id_ed25519'),
      bash(`cat ${home}/.ssh/id_ed25519`),
      bash('cat keys/id_ed25519'),
      bash(`cd ${home}/.ssh && cat id_ed25519`),
      bash('cat inside.txt'),
    ],
    {
      args: ['--permission-mode', 'default'],
      setup: (d) => {
        userSettings({ sandbox: { enabled: false } })(d);
        writeFileSync(path.join(d.project, 'inside.txt'), 'inside content\n');
        symlinkSync(path.join(d.home, '.ssh'), path.join(d.project, 'keys'));
      },
    },
  );
  try {
    expect(deniedCommands(r.denied)).toEqual([
      'cat ~/.ssh/id_ed25519',
      `cat ${r.home}/.ssh/id_ed25519`,
      'cat keys/id_ed25519',
      `cd ${r.home}/.ssh && cat id_ed25519`,
    ]);
    expect(r.results[0]).toContain('would read outside the project');
    expect(r.requests).not.toContain(SECRET);
    expect(r.results[4]).toContain('inside content');
  } finally {
    r.cleanup();
  }
});

test('with the sandbox off, a Read(//…) allow rule for the outside path lets the read-only command run', async () => {
  const r = await runScripted(() => [bash('cat ~/.ssh/id_ed25519'), bash('cat ~/other.txt')], {
    args: ['--permission-mode', 'default'],
    setup: (d) => {
      writeFileSync(path.join(d.home, 'other.txt'), 'not covered\n');
      userSettings({
        sandbox: { enabled: false },
        permissions: { allow: [`Read(/${d.home}/.ssh/**)`] },
      })(d);
    },
  });
  try {
    expect(r.results[0]).toContain(SECRET);
    // The rule covers only what it names.
    expect(deniedCommands(r.denied)).toEqual(['cat ~/other.txt']);
  } finally {
    r.cleanup();
  }
});
