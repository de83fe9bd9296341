import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import { builtinTools } from '../tools/registry';
import type { AnyTool } from '../tools/tool';
import { linksStayInside } from './bash-reads';
import { PermissionEngine, type EngineContext } from './engine';
import { parseRule, type RuleBehavior } from './rule';

/**
 * Read-only Bash commands and the Read tool's path rules, through the real engine on a real folder
 * (symlinks included): unsandboxed, reading outside the project asks as Read does.
 */

const bashTool = builtinTools().find((t) => t.name === 'Bash') as AnyTool;

function setup(
  o: {
    rules?: [RuleBehavior, string][];
    mode?: PermissionMode;
    sandbox?: Partial<EngineContext['sandbox']>;
  } = {},
) {
  const home = tempDir('carapace-reads-home-');
  mkdirSync(path.join(home, '.ssh'));
  const key = path.join(home, '.ssh', 'id_ed25519');
  writeFileSync(key, 'KEY\n');
  const ctx = toolContext();
  const project = ctx.projectRoot;
  writeFileSync(path.join(project, 'inside.txt'), 'in\n');
  mkdirSync(path.join(project, 'src'));
  mkdirSync(path.join(project, 'private'));
  writeFileSync(path.join(project, 'private', 'plan.txt'), 'plan\n');
  symlinkSync(path.join(home, '.ssh'), path.join(project, 'keys'));
  const rules = (o.rules ?? []).map(([b, text]) => parseRule(text, 'project', b, project));
  const engine = new PermissionEngine(() => ({
    rules,
    mode: o.mode ?? 'default',
    home,
    sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [], ...o.sandbox },
  }));
  return {
    home,
    key,
    project,
    bash: (command: string, cwd = project) => engine.decide(bashTool, { command }, { ...ctx, cwd }),
  };
}

describe('Bash allow rules and reads outside the project', () => {
  it('a rule approving a program does not approve it reading outside the project through a redirect', async () => {
    const s = setup({ rules: [['allow', 'Bash(node *)']] });
    expect(await s.bash(`node x.js < ${s.key}`)).toMatchObject({ behavior: 'ask' });
    // Control: the same rule approves the program with input from inside the project.
    expect(await s.bash('node x.js < inside.txt')).toMatchObject({ behavior: 'allow', decidedBy: 'rule' });
  });
});

describe('read-only Bash commands under the Read path rules', () => {
  it('with the sandbox off, asks before reading outside the project and names the path; reads inside run', async () => {
    const s = setup();
    const ask = await s.bash(`cat ${s.key}`);
    expect(ask).toMatchObject({ behavior: 'ask', decidedBy: 'default' });
    expect(ask.reason).toBe(`\`cat\` would read outside the project (${s.key})`);
    expect(ask.suggestions).toEqual([`Read(/${s.key})`]);
    expect(await s.bash('cat ~/.ssh/id_ed25519')).toMatchObject({ behavior: 'ask' });
    expect(await s.bash('head -n 3 ../../etc/passwd')).toMatchObject({ behavior: 'ask' });
    expect(await s.bash('grep -f ~/.ssh/id_ed25519 inside.txt')).toMatchObject({ behavior: 'ask' });
    expect(await s.bash(`xxd ${s.key}`)).toMatchObject({ behavior: 'ask' });
    expect(await s.bash(`find ${path.dirname(s.key)} -name x`)).toMatchObject({ behavior: 'ask' });
    // Controls: inside the project nothing asks, and patterns or programs are not taken for paths.
    for (const command of [
      'cat inside.txt',
      'wc -l inside.txt src/../inside.txt',
      'grep -rn "/api/v1" src',
      "awk '/in/ {print $1}' inside.txt",
      "sed -n '/^\\/usr/p' inside.txt",
      'find . -name "*.txt" -newer inside.txt',
      'git log -n 5 -- src',
      'echo /etc/passwd',
      'ls',
    ])
      expect(await s.bash(command), command).toMatchObject({ behavior: 'allow', decidedBy: 'analysis' });
  });

  it('follows symlinks and cd: a link in the project to ~/.ssh, or a cd out of it, is outside', async () => {
    const s = setup();
    const viaLink = await s.bash('cat keys/id_ed25519');
    expect(viaLink).toMatchObject({ behavior: 'ask' });
    expect(viaLink.reason).toContain(`which leads to ${s.key}`);
    expect(await s.bash(`cd ${s.home}/.ssh && cat id_ed25519`)).toMatchObject({ behavior: 'ask' });
    expect(await s.bash('cd - && cat id_ed25519')).toMatchObject({ behavior: 'ask' });
    // From a session cwd outside the project (an earlier approved cd), a relative read is outside.
    expect(await s.bash('cat id_ed25519', path.join(s.home, '.ssh'))).toMatchObject({ behavior: 'ask' });
    expect(await s.bash('cd src && cat ../inside.txt')).toMatchObject({ behavior: 'allow' });
  });

  it('asks for what cannot be resolved before running: globs, ~user', async () => {
    const s = setup();
    const glob = await s.bash('cat keys/*');
    expect(glob).toMatchObject({ behavior: 'ask' });
    expect(glob.reason).toContain('`keys/*`, a path that cannot be known before it runs');
    expect(await s.bash('cat ~root/.bashrc')).toMatchObject({ behavior: 'ask' });
    // Quoted, a glob is a literal name.
    expect(await s.bash("cat 'inside.txt'")).toMatchObject({ behavior: 'allow' });
  });

  it('lets a Read allow rule covering the path allow it, as it does for Read', async () => {
    const s = setup({ rules: [['allow', `Read(/${path.dirname(path.dirname(tempDir()))}/**)`]] });
    const allowed = await s.bash(`cat ${s.key}`);
    expect(allowed).toMatchObject({ behavior: 'allow', decidedBy: 'rule' });
    expect(allowed.rule?.text).toContain('Read(');
  });

  it('denies by Read deny rules whether or not the sandbox is on', async () => {
    for (const active of [false, true]) {
      const s = setup({ rules: [['deny', 'Read(private/**)']], sandbox: { active } });
      const denied = await s.bash('cat private/plan.txt');
      expect(denied, String(active)).toMatchObject({ behavior: 'deny', decidedBy: 'rule' });
      expect(denied.reason).toContain('`cat` would read');
      expect(await s.bash('cat inside.txt')).toMatchObject({ behavior: 'allow' });
    }
    const bypass = setup({ rules: [['deny', 'Read(private/**)']], mode: 'bypassPermissions' });
    expect(await bypass.bash('cat private/plan.txt')).toMatchObject({ behavior: 'deny' });
  });

  it('with the sandbox on, leaves reads outside the project to the sandbox, as before', async () => {
    const s = setup({ sandbox: { active: true } });
    expect(await s.bash(`cat ${s.key}`)).toMatchObject({ behavior: 'allow', decidedBy: 'analysis' });
    expect(await s.bash('cat keys/*')).toMatchObject({ behavior: 'allow' });
  });

  it('treats a line of excluded commands as unsandboxed, and never auto-allows it as sandboxed', async () => {
    const sandbox = { active: true, autoAllowBashIfSandboxed: true, excludedCommands: ['git'] };
    const s = setup({ sandbox });
    expect(await s.bash(`git diff --no-index ${s.key} inside.txt`)).toMatchObject({ behavior: 'ask' });
    expect(await s.bash('git status')).toMatchObject({ behavior: 'allow', decidedBy: 'analysis' });
    expect(await s.bash('git push')).toMatchObject({ behavior: 'ask', decidedBy: 'default' });
    // Not all excluded: runs sandboxed, so the sandbox rules (and its auto-allow) apply.
    expect(await s.bash('git push; touch x')).toMatchObject({ behavior: 'allow', decidedBy: 'sandbox' });
    expect(await s.bash(`git status; cat ${s.key}`)).toMatchObject({ behavior: 'allow' });
  });

  it('does not let an allow rule for another part carry a read outside the project', async () => {
    const s = setup({ rules: [['allow', 'Bash(npm test *)']] });
    expect(await s.bash(`cat ${s.key} && npm test`)).toMatchObject({ behavior: 'ask' });
    expect(await s.bash('cat inside.txt && npm test')).toMatchObject({
      behavior: 'allow',
      decidedBy: 'rule',
    });
    const exact = setup({
      rules: [
        ['allow', 'Bash(npm test *)'],
        ['allow', 'Bash(cat ~/.ssh/id_ed25519)'],
      ],
    });
    expect(await exact.bash('cat ~/.ssh/id_ed25519 && npm test')).toMatchObject({ behavior: 'allow' });
  });

  it('reads the files input redirects open, as it reads the words naming them', async () => {
    const s = setup();
    const ask = await s.bash('cat < ~/.ssh/id_ed25519');
    expect(ask).toMatchObject({ behavior: 'ask', decidedBy: 'default' });
    expect(ask.reason).toBe(`\`cat\` would read outside the project (${s.key})`);
    for (const command of [
      `cat 0< ${s.key}`,
      `wc -l 3< ${s.key}`,
      'head -n 1 < keys/id_ed25519',
      `cd ${s.home}/.ssh && cat < id_ed25519`,
      'cat < keys/*',
      'cat < ~root/.bashrc',
    ])
      expect(await s.bash(command), command).toMatchObject({ behavior: 'ask' });
    // Controls: a redirect from inside the project, /dev/null, a heredoc or a descriptor runs as before.
    for (const command of [
      'cat < inside.txt',
      'wc -l < src/../inside.txt',
      'git status < /dev/null',
      'ls 2>&1',
    ])
      expect(await s.bash(command), command).toMatchObject({ behavior: 'allow', decidedBy: 'analysis' });
    expect(await s.bash("cat <<'EOF'\nplain\nEOF")).toMatchObject({ behavior: 'allow' });
  });

  it('denies input redirects by Read deny rules, sandbox on or off, read-only command or not', async () => {
    for (const active of [false, true]) {
      const s = setup({ rules: [['deny', 'Read(private/**)']], sandbox: { active } });
      for (const command of ['cat < private/plan.txt', 'node build.js < private/plan.txt'])
        expect(await s.bash(command), `${command} ${active}`).toMatchObject({
          behavior: 'deny',
          decidedBy: 'rule',
        });
      expect(await s.bash('cat < inside.txt')).toMatchObject({ behavior: 'allow' });
    }
  });

  it('with the sandbox off, asks before a recursive command follows a symlink out of the project', async () => {
    const s = setup();
    for (const command of [
      'grep -R BEGIN .',
      'grep -R BEGIN',
      'grep --dereference-recursive BEGIN .',
      'egrep -iR BEGIN',
      'rg -L KEY',
      'rg --follow KEY .',
      'find -L .',
      'find -L . -name id_ed25519',
      'find . -follow -name id_ed25519',
      'ls -LR',
      'ls -L -R .',
      'du -L',
      'tree -l',
      'diff -r . src',
    ]) {
      const ask = await s.bash(command);
      expect(ask, command).toMatchObject({ behavior: 'ask', decidedBy: 'default' });
      expect(ask.reason, command).toContain('follows symlinks, which can lead out of the folder it reads');
    }
    // Controls: not following links, or no link out under what it reads, or inside the sandbox.
    for (const command of [
      'grep -r BEGIN .',
      'grep -rn BEGIN',
      'rg KEY',
      'find . -name id_ed25519',
      'ls -R',
      'ls -L',
      'du -sh .',
      'tree',
      'grep -R BEGIN src',
      'rg -L KEY src private',
      'diff -r --no-dereference . src',
    ])
      expect(await s.bash(command), command).toMatchObject({ behavior: 'allow', decidedBy: 'analysis' });
    const sandboxed = setup({ sandbox: { active: true } });
    expect(await sandboxed.bash('grep -R BEGIN .')).toMatchObject({ behavior: 'allow' });
  });

  it('follows links inside the project to where they lead, and gives up on a tree too big to walk', async () => {
    const s = setup();
    // src/up leads back to the project root, where keys leads out.
    symlinkSync(s.project, path.join(s.project, 'src', 'up'));
    expect(await s.bash('grep -R BEGIN src')).toMatchObject({ behavior: 'ask' });
    expect(linksStayInside(path.join(s.project, 'src'), realpathSync(s.project))).toBe(false);
    expect(linksStayInside(path.join(s.project, 'private'), realpathSync(s.project))).toBe(true);
    expect(linksStayInside(path.join(s.project, 'private'), realpathSync(s.project), 0)).toBe(false);
  });

  it('asks in plan mode too, and dontAsk refuses', async () => {
    expect(await setup({ mode: 'plan' }).bash('cat ~/.ssh/id_ed25519')).toMatchObject({ behavior: 'ask' });
    expect(await setup({ mode: 'plan' }).bash('cat inside.txt')).toMatchObject({ behavior: 'allow' });
    expect(await setup({ mode: 'dontAsk' }).bash('cat ~/.ssh/id_ed25519')).toMatchObject({
      behavior: 'deny',
    });
  });
});
