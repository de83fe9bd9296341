import path from 'node:path';
import { delayServer } from '../fixtures/delay-server';
import { expect, test } from '../fixtures/test';

/**
 * The Open project dialog lists its starting folder when it opens; that answer can arrive after the
 * person has typed a path (hooks-ui.spec.ts once failed so: the home folder's listing replaced the
 * typed path, Open opened the home folder and the trust prompt it waited for never came). Here the
 * server's answers are held back so the listing always arrives after the typing.
 */

test.use({ openProject: false });

test('a path typed before the folder listing arrives is the one Open opens', async ({
  app: page,
  project,
}) => {
  const delay = { ms: 0 };
  await delayServer(page, delay);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Open project…' }).first()).toBeVisible();
  delay.ms = 800;
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  const open = page.getByRole('dialog', { name: 'Open project' });
  const field = open.getByLabel('Folder path');
  await field.fill(project);
  // The starting folder's listing has now arrived (its folders show); the typed path stays.
  await expect(open.getByRole('navigation', { name: 'Folders' })).toBeVisible();
  await expect(field).toHaveValue(project);
  delay.ms = 0;
  await open.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(open).toBeHidden();
  // The typed folder is the open project, not the starting (home) folder.
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();
  await expect(page.locator('header.header')).toContainText(path.basename(project));
});
