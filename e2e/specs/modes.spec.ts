import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ScenarioInput } from '../../src-main/devtools/scripted-api/scenario';
import { startScriptedApi, type ScriptedApi } from '../../src-main/devtools/scripted-api/server';
import { cliEnv, runCli } from '../fixtures/cli';
import { startServe, tempProject, type ServeProcess } from '../fixtures/serve';
import { newSessionTab, send } from '../fixtures/test';

const bash = (id: string, command: string) => ({
  reply: {
    content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }],
    stop_reason: 'tool_use' as const,
  },
});
const done = { times: true as const, reply: { content: [{ type: 'text' as const, text: 'Done.' }] } };

const writeJson = (file: string, value: object) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};

interface Ctx {
  api: ScriptedApi;
  home: string;
  project: string;
  policyFile: string;
  serve(): Promise<ServeProcess>;
  /** A real `carapace -p` in the project, on the same data folder, printing json. */
  print(prompt: string, args?: string[]): Promise<{ code: number | null; out: string; err: string }>;
}

async function setup(steps: ScenarioInput['steps']): Promise<Ctx> {
  const api = await startScriptedApi({ scenario: { steps } });
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-modes-home-'));
  const project = tempProject('modes');
  const policyFile = path.join(home, 'policy', 'managed-settings.json');
  const env = {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'test-key',
    CARAPACE_MAX_RETRIES: '1',
    CARAPACE_MANAGED_SETTINGS: policyFile,
  };
  return {
    api,
    home,
    project,
    policyFile,
    serve: () => startServe({ project, home, env }),
    async print(prompt, args = []) {
      const run = runCli(['-p', prompt, '--output-format', 'json', ...args], cliEnv(home, env), project);
      const code = await run.exit;
      return { code, out: run.stdout(), err: run.stderr() };
    },
  };
}

async function teardown(c: Ctx, ...servers: ServeProcess[]) {
  for (const s of servers) await s.stop();
  await c.api.close();
  rmSync(c.home, { recursive: true, force: true });
  rmSync(c.project, { recursive: true, force: true });
}

async function openApp(page: Page, serve: ServeProcess) {
  await page.goto(serve.url);
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();
}

const picker = (page: Page) => page.getByRole('combobox', { name: 'Permission mode' });
const banner = (page: Page) => page.getByRole('alert', { name: 'Bypass permissions' });

test('a session left in Bypass comes back after a restart in Ask and a writing command asks; Plan is kept', async ({
  page,
}) => {
  const c = await setup([
    { when: { lastUserText: 'write in bypass' }, ...bash('t1', 'touch before.txt') },
    { when: { lastUserText: 'write after restart' }, ...bash('t2', 'touch after.txt') },
    done,
  ]);
  const first = await c.serve();
  let second: ServeProcess | null = null;
  try {
    await page.setViewportSize({ width: 1400, height: 900 });
    await openApp(page, first);
    const planTab = await newSessionTab(page);
    await picker(page).selectOption('plan');
    const bypassTab = await newSessionTab(page);
    // The picker offers every mode, Don't ask included.
    await expect(picker(page).locator('option')).toHaveText([
      'Ask (read-only runs)',
      'Accept edits',
      'Plan (read-only)',
      "Don't ask (refuse what would ask)",
      'Bypass permissions',
    ]);
    await expect(banner(page)).toBeHidden();
    await picker(page).selectOption('bypassPermissions');
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toContainText('run without asking');

    // Control: while on, bypass does what it says (the command runs, nobody is asked).
    await send(page, 'write in bypass');
    await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Done.');
    expect(existsSync(path.join(c.project, 'before.txt'))).toBe(true);
    await expect(banner(page)).toBeVisible();
    await page.screenshot({ path: '/tmp/shots/bypass-banner-1400x900.png' });
    await page.setViewportSize({ width: 900, height: 600 });
    await expect(banner(page)).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: '/tmp/shots/bypass-banner-900x600.png' });
    // Switching to a session that is not in bypass hides it: it belongs to the session, not the app.
    await planTab.click();
    await expect(banner(page)).toBeHidden();
    await bypassTab.click();
    await expect(banner(page)).toBeVisible();

    await first.stop();
    second = await c.serve();
    await openApp(page, second);
    await expect(page.getByRole('tab')).toHaveCount(2);
    await page.getByRole('tab').nth(1).click();
    await expect(picker(page)).toHaveValue('default');
    await expect(banner(page)).toBeHidden();
    await send(page, 'write after restart');
    const prompt = page.getByRole('dialog', { name: 'Permission request' });
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText('touch after.txt');
    expect(existsSync(path.join(c.project, 'after.txt'))).toBe(false);
    await prompt.getByRole('button', { name: 'Deny' }).click();
    await expect(prompt).toBeHidden();

    // The narrower mode survived the restart.
    await page.getByRole('tab').nth(0).click();
    await expect(picker(page)).toHaveValue('plan');
  } finally {
    await teardown(c, ...(second ? [second] : []), first);
  }
});

test("bypass as the default mode: ignored from the project's own .claude/settings.json, honoured from the user's settings, in the app and in -p", async ({
  page,
}) => {
  const c = await setup([
    { when: { lastUserText: 'write one' }, ...bash('w1', 'touch one.txt') },
    { when: { lastUserText: 'write two' }, ...bash('w2', 'touch two.txt') },
    done,
  ]);
  // The hostile repository asks for bypass; even a folder whose settings were trusted does not get it
  // (workspace trust, where present, is pre-accepted here so no trust prompt stands in the way).
  writeJson(path.join(c.project, '.claude', 'settings.json'), {
    permissions: { defaultMode: 'bypassPermissions' },
  });
  writeJson(path.join(c.home, 'trust.json'), {
    folders: {
      [realpathSync(c.project)]: {
        accepted: ['defaultMode:bypassPermissions'],
        declined: [],
        updatedAt: new Date().toISOString(),
      },
    },
  });
  const serve = await c.serve();
  try {
    await openApp(page, serve);
    await newSessionTab(page);
    await expect(picker(page)).toHaveValue('default');
    await expect(banner(page)).toBeHidden();

    const denied = await c.print('write one');
    expect(denied.code).toBe(0);
    expect(denied.err).toContain("a project's own settings cannot widen the permission mode");
    const deniedResult = JSON.parse(denied.out) as {
      permission_denials: { tool_input: { command: string } }[];
    };
    expect(deniedResult.permission_denials.map((d) => d.tool_input.command)).toEqual(['touch one.txt']);
    expect(existsSync(path.join(c.project, 'one.txt'))).toBe(false);

    // Control: the same key in the person's own settings (CARAPACE_HOME/settings.json) is honoured.
    writeJson(path.join(c.home, 'settings.json'), { permissions: { defaultMode: 'bypassPermissions' } });
    await newSessionTab(page);
    await expect(picker(page)).toHaveValue('bypassPermissions');
    await expect(banner(page)).toBeVisible();
    const allowed = await c.print('write two');
    expect(allowed.code).toBe(0);
    expect((JSON.parse(allowed.out) as { permission_denials: unknown[] }).permission_denials).toEqual([]);
    expect(existsSync(path.join(c.project, 'two.txt'))).toBe(true);
  } finally {
    await teardown(c, serve);
  }
});

test('a policy with disableBypassPermissionsMode disables Bypass in the picker and refuses -p --permission-mode bypassPermissions', async ({
  page,
}) => {
  const c = await setup([{ when: { lastUserText: 'write three' }, ...bash('w3', 'touch three.txt') }, done]);
  writeJson(c.policyFile, { permissions: { disableBypassPermissionsMode: 'disable' } });
  const serve = await c.serve();
  try {
    await openApp(page, serve);
    await newSessionTab(page);
    const bypass = picker(page).locator('option[value="bypassPermissions"]');
    await expect(bypass).toBeDisabled();
    await expect(bypass).toHaveText('Bypass permissions (disabled)');
    // Control: the other modes still apply.
    await picker(page).selectOption('acceptEdits');
    await expect(picker(page)).toHaveValue('acceptEdits');
    await expect(picker(page).locator('option[value="plan"]')).toBeEnabled();

    const refused = await c.print('write three', ['--permission-mode', 'bypassPermissions']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('--permission-mode bypassPermissions is refused');
    expect(refused.err).toContain('disableBypassPermissionsMode');
    expect(c.api.requests).toHaveLength(0);
    expect(existsSync(path.join(c.project, 'three.txt'))).toBe(false);
  } finally {
    await teardown(c, serve);
  }
});
