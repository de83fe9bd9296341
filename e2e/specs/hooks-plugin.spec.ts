import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installPlugin } from '../../src-main/harness/plugins/registry';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, test } from '../fixtures/test';

/**
 * Settings → Hooks lists an enabled plugin's hooks under the plugin's name, with the file they are
 * written in, as they run; in Chromium over serve mode.
 */

const home = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-hooks-plugin-home-'));
test.use({ serveEnv: { CARAPACE_HOME: home } });

function hookPlugin(): string {
  const root = path.join(
    realpathSync(mkdtempSync(path.join(tmpdir(), 'carapace-e2e-hook-plugin-'))),
    'guard',
  );
  const put = (rel: string, value: unknown) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), JSON.stringify(value));
  };
  put('.claude-plugin/plugin.json', { name: 'guard', version: '1.0.0' });
  put('hooks/hooks.json', {
    description: 'guards the shell',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/scripts/check-shell.sh"', timeout: 10 },
          ],
        },
      ],
      Stop: [
        { hooks: [{ type: 'command', command: 'echo done >> "${CLAUDE_PLUGIN_DATA}/log"', async: true }] },
      ],
    },
  });
  return root;
}

test('a plugin’s hooks are listed under “Plugin <name>” with their file, as they run', async ({
  app: page,
}) => {
  const installed = installPlugin(home, hookPlugin()).folder;
  const hooksFile = path.join(installed, 'hooks', 'hooks.json');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const hooks = settings.getByRole('region', { name: 'Hooks' });
  const group = hooks.getByRole('group', { name: 'Plugin guard' });
  await group.scrollIntoViewIfNeeded();
  await expect(group).toContainText(hooksFile);
  await expect(group.getByRole('heading', { name: 'PreToolUse', exact: true })).toBeVisible();
  const check = group.getByRole('listitem').filter({ hasText: 'check-shell.sh' });
  // As it runs: the plugin's folder put in.
  await expect(check).toContainText(`${installed}/scripts/check-shell.sh`);
  await expect(check).toContainText('10 s');
  await expect(check).toContainText('Runs');
  await expect(group.getByRole('listitem').filter({ hasText: 'echo done' })).toContainText('Async');
  // Not among the user's own hooks.
  await expect(hooks.getByRole('group', { name: 'User settings' })).not.toContainText('check-shell.sh');
  await page.screenshot({ path: docsScreenshot(test.info(), 'hooks-plugin-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await check.scrollIntoViewIfNeeded();
  const dialogBox = await settings.boundingBox();
  const rowBox = await check.boundingBox();
  expect(rowBox && dialogBox && rowBox.x + rowBox.width <= dialogBox.x + dialogBox.width).toBe(true);
  await page.screenshot({ path: docsScreenshot(test.info(), 'hooks-plugin-900x600.png') });
});
