import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HooksView } from '@shared/ipc/contract/hooks';
import { projectWideningItems } from '../harness/permissions/trust';
import { installPlugin } from '../harness/plugins/registry';
import { realpathSync } from 'node:fs';
import { appHooks } from '../workspace/session-hooks';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';
import { hooksHandlers } from './hooks';

const ctx = { transport: 'websocket' as const };
const writeJson = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};

async function setup(policy?: unknown) {
  const policyFile = path.join(tempDir('carapace-policy-'), 'managed-settings.json');
  if (policy !== undefined) writeJson(policyFile, policy);
  const t = await testCarapace(undefined, { CARAPACE_MANAGED_SETTINGS: policyFile });
  const s = t.carapace.services;
  const projectId = s.workspace.open(t.project).project.id;
  const list = async () => HooksView.parse(await hooksHandlers(s)['hooks.list']({ projectId }, ctx));
  return { ...t, s, projectId, policyFile, list };
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});

describe('hooks.list: every hook of the open project, by source, with whether it runs', () => {
  it('lists user and project hooks with matcher, if, type, target, timeout and async; project hooks run only once trusted', async () => {
    const t = await setup();
    writeJson(path.join(t.home, 'settings.json'), {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [cmd('./check.sh', { if: 'Bash(git *)', timeout: 5 })] }],
        Stop: [{ hooks: [{ type: 'http', url: 'https://example.test/stop' }] }],
      },
    });
    writeJson(path.join(t.project, '.claude', 'settings.json'), {
      hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [cmd('npm run lint', { async: true })] }] },
    });
    const before = await t.list();
    expect(
      before.hooks.map((h) => [
        h.source,
        h.event,
        h.matcher,
        h.if,
        h.type,
        h.target,
        h.timeoutS,
        h.timeoutDefault,
        h.async,
        h.runs,
      ]),
    ).toEqual([
      ['project', 'PostToolUse', 'Edit|Write', null, 'command', 'npm run lint', 600, true, true, false],
      ['user', 'PreToolUse', 'Bash', 'Bash(git *)', 'command', './check.sh', 5, false, false, true],
      ['user', 'Stop', '', null, 'http', 'https://example.test/stop', 600, true, false, true],
    ]);
    expect(before.hooks[0]?.whyNot).toMatch(
      /^Not accepted: .claude\/settings.json is the project's own file/,
    );
    expect(before.hooks[0]?.file).toBe(path.join(t.project, '.claude', 'settings.json'));
    expect(before.narrowedBy).toBeNull();
    expect(before.files.map((f) => [f.source, f.exists])).toEqual([
      ['policy', false],
      ['local', false],
      ['project', true],
      ['user', true],
    ]);

    // Trusting the folder's items makes its hook run.
    t.s.trust.trustShown(
      t.project,
      projectWideningItems(t.project).map((i) => i.key),
    );
    const after = await t.list();
    expect(after.hooks[0]).toMatchObject({ source: 'project', runs: true, whyNot: null });
  });

  it('shows invalid entries and unreadable files as problems with their file; the valid rest is listed', async () => {
    const t = await setup();
    const user = path.join(t.home, 'settings.json');
    writeJson(user, {
      hooks: {
        NotAnEvent: [{ hooks: [cmd('x')] }],
        PreToolUse: [{ hooks: [{ type: 'command' }, cmd('ok.sh')] }],
      },
    });
    writeJson(path.join(t.project, '.claude', 'settings.local.json'), '{ not json');
    const view = await t.list();
    expect(view.hooks.map((h) => h.target)).toEqual(['ok.sh']);
    const byFile = view.problems.map((p) => [p.file, p.message.split(':')[0]]);
    expect(byFile).toContainEqual([user, 'hooks.NotAnEvent']);
    expect(byFile).toContainEqual([user, 'hooks.PreToolUse[0].hooks[0].command']);
    expect(
      view.problems.some((p) => p.file.endsWith('settings.local.json') && /ignored/.test(p.message)),
    ).toBe(true);
  });

  it('disableAllHooks in the user file: every hook listed as off but the policy’s, with the reason', async () => {
    const t = await setup({ hooks: { SessionStart: [{ hooks: [cmd('audit.sh')] }] } });
    writeJson(path.join(t.home, 'settings.json'), {
      disableAllHooks: true,
      hooks: { Stop: [{ hooks: [cmd('notify.sh')] }] },
    });
    const view = await t.list();
    expect(view.narrowedBy).toBe(`disableAllHooks in ${path.join(t.home, 'settings.json')}`);
    expect(view.hooks.map((h) => [h.source, h.runs])).toEqual([
      ['policy', true],
      ['user', false],
    ]);
    expect(view.hooks[1]?.whyNot).toBe(`Off: ${view.narrowedBy}`);
  });

  it('allowManagedHooksOnly in the policy keeps only the policy’s hooks', async () => {
    const t = await setup({ allowManagedHooksOnly: true, hooks: { Stop: [{ hooks: [cmd('p.sh')] }] } });
    writeJson(path.join(t.home, 'settings.json'), { hooks: { Stop: [{ hooks: [cmd('u.sh')] }] } });
    const view = await t.list();
    expect(view.narrowedBy).toBe('allowManagedHooksOnly in the managed policy');
    expect(view.hooks.map((h) => [h.target, h.runs])).toEqual([
      ['p.sh', true],
      ['u.sh', false],
    ]);
  });

  it('an entry the runner cannot use is listed as a problem, never as a hook, even once trusted (one reader for both)', async () => {
    const t = await setup();
    // A group written as an object instead of a list: the trust prompt still shows it (it hides no
    // hook), but the runner's reader refuses it, so it must neither run nor be listed as a hook.
    writeJson(path.join(t.project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: { matcher: 'Bash', hooks: [cmd('single.sh')] },
        Stop: [{ hooks: [cmd('fine.sh')] }],
      },
    });
    t.s.trust.trustShown(
      t.project,
      projectWideningItems(t.project).map((i) => i.key),
    );
    const view = await t.list();
    expect(view.hooks.map((h) => [h.target, h.runs])).toEqual([['fine.sh', true]]);
    expect(view.problems).toContainEqual({
      file: path.join(t.project, '.claude', 'settings.json'),
      message: 'hooks.PreToolUse: should be a list of {matcher, hooks}; it is ignored',
    });
    const running = appHooks(t.s.permissionLocations(t.project)).hooks;
    expect(running.map((h) => h.handler.type === 'command' && h.handler.command)).toEqual(['fine.sh']);
  });

  it('lists an enabled plugin’s hooks with source plugin, its name and file; they run, and disableAllHooks turns them off', async () => {
    const t = await setup();
    const root = path.join(realpathSync(tempDir('carapace-plugin-src-')), 'tools');
    writeJson(path.join(root, '.claude-plugin', 'plugin.json'), { name: 'tools', version: '1.0.0' });
    writeJson(path.join(root, 'hooks', 'hooks.json'), {
      hooks: {
        UserPromptSubmit: [{ hooks: [cmd('cat "${CLAUDE_PLUGIN_ROOT}/context.txt"')] }],
        Nope: [{ hooks: [cmd('x')] }],
      },
    });
    const installed = installPlugin(t.home, root).folder;
    const view = await t.list();
    const plugin = view.hooks.filter((h) => h.source === 'plugin');
    expect(plugin).toHaveLength(1);
    expect(plugin[0]).toMatchObject({
      plugin: 'tools',
      file: path.join(installed, 'hooks', 'hooks.json'),
      event: 'UserPromptSubmit',
      runs: true,
      whyNot: null,
    });
    // Shown as it runs: the plugin's folder put in.
    expect(plugin[0]?.target).toContain(`${installed}/context.txt`);
    expect(view.problems).toContainEqual({
      file: path.join(installed, 'hooks', 'hooks.json'),
      message: expect.stringMatching(/^hooks\.Nope: unknown event/),
    });
    writeJson(path.join(t.home, 'settings.json'), { disableAllHooks: true });
    const off = await t.list();
    expect(off.hooks.find((h) => h.source === 'plugin')).toMatchObject({ runs: false });
  });

  it('refuses a project id the workspace does not know', async () => {
    const t = await setup();
    expect(() => hooksHandlers(t.s)['hooks.list']({ projectId: 'nope' }, ctx)).toThrow();
  });
});
