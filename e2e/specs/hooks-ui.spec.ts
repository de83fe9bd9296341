import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * Hooks in the UI, in Chromium over serve mode against the scripted Messages API: Settings lists
 * every hook by source then event with whether it runs and the invalid entry as an error with its
 * file; in the transcript each hook run is a quiet note that expands, from the keyboard, to its
 * output, and a block stands out.
 */

const USER_HOOK = 'echo "policy check passed"; echo "note: slow disk" >&2';
const BLOCK_HOOK = 'echo "rm is not allowed here" >&2; exit 2';

test.use({
  openProject: false,
  scenario: {
    steps: [
      {
        times: true,
        when: { lastUserText: 'clean up' },
        reply: {
          content: [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'rm -rf build' } }],
          stop_reason: 'tool_use',
        },
      },
      {
        times: true,
        when: { lastUserText: 'rm is not allowed here' },
        reply: { content: [{ type: 'text', text: 'I will leave build/ alone.' }] },
      },
    ],
  },
});

test('Settings lists hooks by source and event; a hook note expands to its output and a block stands out', async ({
  app: page,
  project,
  serve,
}) => {
  // The person's own hooks, and the project's (one of them invalid).
  writeFileSync(
    path.join(serve.home, 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: USER_HOOK, timeout: 5 }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'true', async: true }] }],
      },
    }),
  );
  mkdirSync(path.join(project, '.claude'));
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: BLOCK_HOOK, if: 'Bash(rm *)' }, { type: 'command' }],
          },
        ],
      },
    }),
  );
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  const open = page.getByRole('dialog', { name: 'Open project' });
  await open.getByLabel('Folder path').fill(project);
  await open.getByRole('button', { name: 'Open', exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Trust this folder?' });
  await prompt.getByRole('button', { name: 'Trust', exact: true }).click();
  await expect(prompt).toBeHidden();

  // Settings: the hooks by source, then event.
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const hooks = settings.getByRole('region', { name: 'Hooks' });
  await hooks.scrollIntoViewIfNeeded();
  const projectGroup = hooks.getByRole('group', { name: 'Project settings', exact: true });
  await expect(projectGroup).toContainText(path.join(project, '.claude', 'settings.json'));
  await expect(projectGroup.getByRole('heading', { name: 'PreToolUse', exact: true })).toBeVisible();
  const blockRow = projectGroup.getByRole('listitem').filter({ hasText: BLOCK_HOOK });
  await expect(blockRow).toContainText('Bash(rm *)');
  await expect(blockRow).toContainText('600 s (default)');
  await expect(blockRow).toContainText('Runs');
  const userGroup = hooks.getByRole('group', { name: 'User settings' });
  const userRow = userGroup.getByRole('listitem').filter({ hasText: 'policy check passed' });
  await expect(userRow).toContainText('5 s');
  await expect(userRow).toContainText('Runs');
  await expect(userGroup.getByRole('heading', { name: 'Stop', exact: true })).toBeVisible();
  await expect(userGroup.getByRole('listitem').filter({ hasText: /^command\s*true/ })).toContainText('Async');
  await expect(hooks.getByRole('group', { name: 'Hook problems' })).toContainText(
    `Error in ${path.join(project, '.claude', 'settings.json')}: hooks.PreToolUse[0].hooks[1].command`,
  );
  await projectGroup.scrollIntoViewIfNeeded();
  await page.screenshot({ path: docsScreenshot(test.info(), 'hooks-settings-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await blockRow.scrollIntoViewIfNeeded();
  // The long command wraps inside the dialog rather than widening it.
  const dialogBox = await settings.boundingBox();
  const rowBox = await blockRow.boundingBox();
  expect(rowBox && dialogBox && rowBox.x + rowBox.width <= dialogBox.x + dialogBox.width).toBe(true);
  await page.screenshot({ path: docsScreenshot(test.info(), 'hooks-settings-900x600.png') });
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  // A turn whose Bash call the project's hook blocks; the user's hook runs beside it.
  await page.setViewportSize({ width: 1400, height: 900 });
  await newSessionTab(page);
  await send(page, 'clean up');
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript).toContainText('I will leave build/ alone.');
  const blocked = transcript.locator('.hook-note').filter({ hasText: 'rm is not allowed here' });
  await expect(blocked).toContainText('✕ Blocked');
  await expect(blocked).toHaveAttribute('data-outcome', 'block');
  const passed = transcript.locator('.hook-note').filter({ hasText: 'policy check passed' });
  await expect(passed).toContainText(/PreToolUse hook \(Bash\): .* — ok, \d+ ms/);
  await expect(passed.locator('.hook-verdict')).toHaveCount(0);

  // From the keyboard: focus the note's button, Enter opens the output, Enter again closes it.
  const toggle = passed.getByRole('button', { name: 'Show output' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(passed.getByRole('button', { name: 'Hide output' })).toHaveAttribute('aria-expanded', 'true');
  await expect(passed.getByRole('button', { name: 'Hide output' })).toBeFocused();
  const output = passed.getByRole('region', { name: 'PreToolUse hook output' });
  await expect(output).toContainText('stdoutpolicy check passed');
  await expect(output).toContainText('stderrnote: slow disk');
  await blocked.getByRole('button', { name: 'Show output' }).click();
  await expect(blocked.getByRole('region', { name: 'PreToolUse hook output' })).toContainText('exit code 2');
  await page.screenshot({ path: docsScreenshot(test.info(), 'hooks-note-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await output.scrollIntoViewIfNeeded();
  await page.screenshot({ path: docsScreenshot(test.info(), 'hooks-note-900x600.png') });
  await passed.getByRole('button', { name: 'Hide output' }).press('Enter');
  await expect(output).toBeHidden();
  await expect(passed.getByRole('button', { name: 'Show output' })).toHaveAttribute('aria-expanded', 'false');
});
