import { expect, newSessionTab, test } from '../fixtures/test';

const words = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name}-${i}`).join(' ');

test.use({
  openProject: false,
  scenario: {
    steps: ['alpha', 'beta', 'gamma'].map((name) => ({
      when: { lastUserText: name },
      // Each reply stops after its first piece ("Reply to <name>: ") until the test opens the gate, so
      // the three are mid-stream together however long typing the three messages takes.
      reply: {
        content: [{ type: 'text' as const, text: `Reply to ${name}: ${words(name, 80)} END-${name}` }],
        chunkChars: 16,
        delayMs: 10,
        hold: { afterEvents: 4, gate: 'all-started' },
      },
    })),
  },
});

test('three tabs stream at once; tabs rename, close and survive a reload', async ({
  app: page,
  project,
  api,
}) => {
  // Open the project through the dialog, as a person would.
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Open project' });
  await dialog.getByLabel('Folder path').fill(project);
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();

  for (let i = 0; i < 3; i++) await newSessionTab(page);
  await expect(page.getByRole('tablist').getByRole('tab')).toHaveCount(3);

  // Side by side, every open session tiled: one panel each, each with its own composer.
  await page.getByRole('button', { name: 'Side by side' }).click();
  await page.getByRole('button', { name: 'Tile all open tabs' }).click();
  const panels = page.getByRole('tabpanel');
  await expect(panels).toHaveCount(3);
  const names = ['alpha', 'beta', 'gamma'];
  for (let i = 0; i < 3; i++) {
    await panels.nth(i).getByRole('textbox', { name: 'Message' }).fill(`please ${names[i]}`);
    await panels.nth(i).getByRole('textbox', { name: 'Message' }).press('Enter');
  }

  // All three replies are streaming at the same moment, and every tab says it is working.
  await expect(page.locator('article[data-status="streaming"]')).toHaveCount(3);
  for (const tab of await page.getByRole('tab').all())
    await expect(tab).toHaveAttribute('data-badge', 'working');
  for (let i = 0; i < 3; i++) {
    await expect(panels.nth(i).getByRole('log', { name: 'Transcript' })).toContainText(
      `Reply to ${names[i]}:`,
    );
  }
  expect(api.requests).toHaveLength(3);
  api.release('all-started');

  for (let i = 0; i < 3; i++) {
    await expect(panels.nth(i).getByRole('log')).toContainText(`END-${names[i]}`, { timeout: 20_000 });
  }
  await expect(page.locator('article[data-status="streaming"]')).toHaveCount(0);
  // Each reply went to its own tab: no text leaked across sessions.
  await expect(panels.nth(0).getByRole('log')).not.toContainText('beta-');
  await expect(panels.nth(1).getByRole('log')).not.toContainText('gamma-');

  // Rename the first tab.
  const first = page.getByRole('tab').first();
  await first.dblclick();
  const field = page.getByRole('textbox', { name: 'Session name' });
  await field.fill('Alpha work');
  await field.press('Enter');
  await expect(page.getByRole('tab').first()).toHaveAccessibleName(/^Alpha work/);
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toContainText('Alpha work');

  // Close the third tab: it leaves the strip but stays in the sidebar.
  const third = page.getByRole('tab').nth(2);
  const thirdName = (await third.locator('.tab-title').textContent()) ?? '';
  await third.getByRole('button', { name: /^Close / }).click();
  await expect(page.getByRole('tab')).toHaveCount(2);
  await expect(page.getByRole('navigation', { name: 'Sessions' }).getByRole('button')).toHaveCount(3);

  // Reload: the same two tabs come back, in order, with their transcripts.
  await page.reload();
  await expect(page.getByRole('tab')).toHaveCount(2);
  await expect(page.getByRole('tab').first()).toHaveAccessibleName(/^Alpha work/);
  await expect(page.getByRole('tab').nth(1)).not.toHaveAccessibleName(thirdName);
  await expect(page.getByRole('tabpanel').first().getByRole('log')).toContainText('END-alpha');
  await expect(page.getByRole('tabpanel').nth(1).getByRole('log')).toContainText('END-beta');
});

test('keyboard: Ctrl+T opens, Ctrl+1..9 switches, Ctrl+W closes', async ({ app: page, project }) => {
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  await page.getByRole('dialog').getByLabel('Folder path').fill(project);
  await page.getByRole('dialog').getByLabel('Folder path').press('Enter');
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();

  await page.keyboard.press('Control+t');
  await expect(page.getByRole('tab')).toHaveCount(1);
  await page.keyboard.press('Control+t');
  await page.keyboard.press('Control+t');
  await expect(page.getByRole('tab')).toHaveCount(3);
  await expect(page.getByRole('tab').nth(2)).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('Control+1');
  await expect(page.getByRole('tab').nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+9');
  await expect(page.getByRole('tab').nth(2)).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('Control+w');
  await expect(page.getByRole('tab')).toHaveCount(2);
  await expect(page.getByRole('tab').nth(1)).toHaveAttribute('aria-selected', 'true');

  // Ctrl+Shift+← moves the active tab left.
  const moved = await page.getByRole('tab').nth(1).getAttribute('id');
  await page.keyboard.press('Control+Shift+ArrowLeft');
  await expect(page.getByRole('tab').nth(0)).toHaveAttribute('id', moved ?? '');
});
