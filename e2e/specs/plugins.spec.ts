import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { installPlugin } from '../../src-main/harness/plugins/registry';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * Settings → Plugins in Chromium over serve mode: a folder that is no plugin is refused in words; a
 * plugin folder in Claude Code's layout is installed by its path, listed with its version and
 * description, disabled with its switch (the list in CARAPACE_HOME says so), and removed. A user
 * settings file's `enabledPlugins` outranks the switch and the row says where the state comes from;
 * the plugin's hook writes into its `${CLAUDE_PLUGIN_DATA}` folder, which the row shows and Remove
 * keeps when asked.
 */

/** Shows Settings page `name` through the Settings dialog's list of pages. */
const showSettingsPage = (settings: Locator, name: string) =>
  settings.getByRole('navigation', { name: 'Settings pages' }).getByRole('button', { name }).click();

// Carapace's own folder for this run: the installed plugins' list is written there.
const HOME = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-plugins-home-'));
const HOOK_LOG = path.join(HOME, 'hook-ran.txt');

test.use({
  serveEnv: { CARAPACE_HOME: HOME },
  scenario: {
    steps: [
      {
        times: true,
        when: { lastUserText: 'plain after disabling' },
        reply: { content: [{ type: 'text', text: 'Plain reply.' }] },
      },
      // The plugin's command, expanded, is what reaches the model.
      {
        times: true,
        when: { lastUserText: 'PLUGIN-SHIP-BODY' },
        reply: { content: [{ type: 'text', text: 'Shipped by the plugin.' }] },
      },
    ],
  },
});

function fixturePlugin(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-plugin-'));
  mkdirSync(path.join(root, '.claude-plugin'));
  writeFileSync(
    path.join(root, '.claude-plugin', 'plugin.json'),
    JSON.stringify({
      name: 'review-tools',
      version: '1.2.0',
      description: 'Review helpers: a lint skill, a /review-tools:ship command and a hook that logs prompts.',
    }),
  );
  mkdirSync(path.join(root, 'commands'));
  writeFileSync(
    path.join(root, 'commands', 'ship.md'),
    '---\ndescription: Ships it\n---\nPLUGIN-SHIP-BODY $ARGUMENTS\n',
  );
  // Its hook writes down each prompt's event: it runs in the app's sessions too (no trust asked).
  mkdirSync(path.join(root, 'hooks'));
  writeFileSync(
    path.join(root, 'hooks', 'hooks.json'),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: `echo "$CLAUDE_PLUGIN_ROOT" >> '${HOOK_LOG}'; echo ran >> "\${CLAUDE_PLUGIN_DATA}/runs.txt"`,
              },
            ],
          },
        ],
      },
    }),
  );
  return root;
}

test('installs a plugin from a folder path, lists it, disables and removes it', async ({
  app: page,
}, testInfo) => {
  const root = fixturePlugin();
  const empty = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-not-a-plugin-'));

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await showSettingsPage(settings, 'Plugins');
  const plugins = settings.getByRole('region', { name: 'Installed plugins' });
  await expect(plugins).toContainText('No plugins are installed.');

  const form = plugins.getByRole('form', { name: 'Install a plugin' });
  await form.getByLabel('Install from folder…').fill(empty);
  await form.getByRole('button', { name: 'Install' }).click();
  await expect(plugins.getByRole('alert')).toContainText('is not a plugin: its .claude-plugin/plugin.json');

  await form.getByLabel('Install from folder…').fill(root);
  await form.getByLabel('Install from folder…').press('Enter');
  const row = plugins.getByRole('listitem', { name: 'Plugin review-tools' });
  await expect(row).toContainText('v1.2.0');
  await expect(row).toContainText('Review helpers: a lint skill');
  await expect(plugins.getByRole('alert')).toBeHidden();
  const toggle = row.getByRole('switch', { name: 'Enabled: review-tools' });
  await expect(toggle).toBeChecked();

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'plugins-page-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'plugins-page-900x600.png') });

  // In a session, the plugin's command expands (read afresh at each message, so no restart).
  await settings.getByRole('button', { name: 'Close' }).click();
  await newSessionTab(page);
  await send(page, '/review-tools:ship now');
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Shipped by the plugin.');
  expect(readFileSync(HOOK_LOG, 'utf8')).toBe(`${path.join(HOME, 'plugins', 'review-tools')}\n`);
  const DATA = path.join(HOME, 'plugins', 'data', 'review-tools');
  expect(readFileSync(path.join(DATA, 'runs.txt'), 'utf8')).toBe('ran\n');
  // The user's settings say off: that outranks the switch (still on), and the row says where from.
  const userSettings = path.join(HOME, 'settings.json');
  writeFileSync(userSettings, JSON.stringify({ enabledPlugins: { 'review-tools@local': false } }));
  await page.getByRole('button', { name: 'Settings' }).click();
  const openPlugins = () => showSettingsPage(settings, 'Plugins');
  await openPlugins();
  const state = row.getByLabel("Where review-tools's state comes from");
  await expect(state).toHaveText(`○ Off by enabledPlugins in ${userSettings} (this outranks the switch)`);
  await expect(toggle).toBeChecked();
  await expect(row).toContainText(`Data: ${DATA}`);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'plugins-state-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'plugins-state-900x600.png') });
  writeFileSync(userSettings, '{}');
  await showSettingsPage(settings, 'MCP');
  await openPlugins();
  await expect(row).toBeVisible();
  await expect(state).toBeHidden();

  // Disabled from the keyboard: the switch keeps focus and the list in CARAPACE_HOME says so.
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeFocused();
  await expect(row).toContainText('Disabled');
  const list = JSON.parse(readFileSync(path.join(HOME, 'plugins', 'installed.json'), 'utf8')) as {
    plugins: { name: string; enabled: boolean }[];
  };
  expect(list.plugins).toEqual([expect.objectContaining({ name: 'review-tools', enabled: false })]);

  // Disabled, its command is gone at the next message.
  await settings.getByRole('button', { name: 'Close' }).click();
  await send(page, '/review-tools:ship again');
  await expect(page.getByText('Unknown slash command: /review-tools:ship')).toBeVisible();
  // Nor does its hook run any more.
  await send(page, 'plain after disabling');
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Plain reply.');
  expect(readFileSync(HOOK_LOG, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  await page.getByRole('button', { name: 'Settings' }).click();

  await row.getByRole('button', { name: 'Remove review-tools…' }).click();
  // Its data goes with it unless kept (Claude Code's --keep-data).
  await row.getByRole('checkbox', { name: /^Keep its data folder/ }).check();
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'plugins-remove-900x600.png') });
  await row.getByRole('button', { name: 'Remove review-tools', exact: true }).click();
  await expect(plugins).toContainText('No plugins are installed.');
  expect(existsSync(path.join(HOME, 'plugins', 'review-tools'))).toBe(false);
  expect(readFileSync(path.join(DATA, 'runs.txt'), 'utf8')).toBe('ran\n');
  // The folder is the person's and is left as it was.
  expect(readFileSync(path.join(root, '.claude-plugin', 'plugin.json'), 'utf8')).toContain('review-tools');
});

test.describe('a repository’s enabledPlugins', () => {
  // A Carapace folder of its own, with the plugin installed before the project is opened.
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-plugins-repo-home-'));
  test.use({ openProject: false, serveEnv: { CARAPACE_HOME: home } });

  test('is a trust question; trusted, it turns the plugin off in that project and the row says so', async ({
    app: page,
    project,
  }, testInfo) => {
    installPlugin(home, fixturePlugin());
    mkdirSync(path.join(project, '.claude'));
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'review-tools@local': false } }),
    );
    await page.getByRole('button', { name: 'Open project…' }).first().click();
    const open = page.getByRole('dialog', { name: 'Open project' });
    await open.getByLabel('Folder path').fill(project);
    await open.getByRole('button', { name: 'Open', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: 'Trust this folder?' });
    await expect(prompt.getByRole('region', { name: 'Plugins switched on or off' })).toContainText(
      'Turns off plugin review-tools@local (if you installed it)',
    );
    await page.setViewportSize({ width: 900, height: 600 });
    await page.screenshot({ path: docsScreenshot(testInfo, 'plugins-trust-900x600.png') });
    await prompt.getByRole('button', { name: 'Trust', exact: true }).click();
    await expect(prompt).toBeHidden();

    // Off in this project: its command is unknown here.
    await newSessionTab(page);
    await send(page, '/review-tools:ship now');
    await expect(page.getByText('Unknown slash command: /review-tools:ship')).toBeVisible();

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await showSettingsPage(settings, 'Plugins');
    const row = settings.getByRole('listitem', { name: 'Plugin review-tools' });
    await expect(row.getByLabel("Where review-tools's state comes from")).toHaveText(
      '○ Off by enabledPlugins in .claude/settings.json (this outranks the switch)',
    );
    await expect(row.getByRole('switch', { name: 'Enabled: review-tools' })).toBeChecked();
  });
});
