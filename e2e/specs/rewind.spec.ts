import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'change the notes' },
        reply: {
          content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'notes.txt' } }],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'alpha' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_edit',
              name: 'Edit',
              input: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' },
            },
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'has been updated' },
        reply: { content: [{ type: 'text', text: 'Changed it.' }] },
      },
    ],
  },
});

/** One turn in which the agent edits notes.txt from "alpha" to "beta". */
async function agentEdits(page: Page, project: string): Promise<string> {
  const file = path.join(project, 'notes.txt');
  writeFileSync(file, 'alpha\n');
  await newSessionTab(page);
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
  await send(page, 'change the notes');
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Changed it.');
  expect(readFileSync(file, 'utf8')).toBe('beta\n');
  return file;
}

test('Rewind to here: the dialog lists the file, the transcript ends before the message and the file is back', async ({
  app: page,
  project,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const file = await agentEdits(page, project);
  const log = page.getByRole('log', { name: 'Transcript' });
  const mine = log.getByRole('article', { name: 'You' });
  await mine.hover();
  await mine.getByRole('button', { name: 'Rewind to here' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rewind to here' });
  await expect(dialog.getByRole('list', { name: 'Files' })).toContainText('notes.txt');
  await expect(dialog).toContainText('restored');
  await dialog.getByRole('button', { name: 'Rewind', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(log).not.toContainText('Changed it.');
  await expect(log.getByRole('article', { name: 'You' })).toHaveCount(0);
  expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  // The message is back in the box, to send again.
  await expect(page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' })).toHaveValue(
    'change the notes',
  );
});

test('a file the person changed after the agent is shown in the dialog, and nothing is written until they confirm', async ({
  app: page,
  project,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const file = await agentEdits(page, project);
  writeFileSync(file, 'my own words\n');
  const log = page.getByRole('log', { name: 'Transcript' });
  const mine = log.getByRole('article', { name: 'You' });
  // Keyboard: Tab reaches the actions inside the message.
  await mine.getByRole('button', { name: 'Rewind to here' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rewind to here' });
  const row = dialog.getByRole('listitem').filter({ hasText: 'notes.txt' });
  await expect(row).toContainText('changed by someone else since');
  await expect(dialog.getByRole('button', { name: 'Rewind anyway' })).toBeVisible();
  await page.screenshot({ path: docsScreenshot(test.info(), 'rewind-conflict-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await expect(dialog.getByRole('button', { name: 'Rewind anyway' })).toBeInViewport();
  await page.screenshot({ path: docsScreenshot(test.info(), 'rewind-conflict-900x600.png') });
  // Asked, not done: cancelling leaves the person's file and the conversation as they were.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(readFileSync(file, 'utf8')).toBe('my own words\n');
  await expect(log).toContainText('Changed it.');
  // Confirmed: the file is put back.
  await mine.hover();
  await mine.getByRole('button', { name: 'Rewind to here' }).click();
  await dialog.getByRole('button', { name: 'Rewind anyway' }).click();
  await expect(dialog).toBeHidden();
  await expect(log).not.toContainText('Changed it.');
  expect(readFileSync(file, 'utf8')).toBe('alpha\n');
});

test('Fork from here opens a new tab with the conversation before the message; the original stays', async ({
  app: page,
  project,
}) => {
  const file = await agentEdits(page, project);
  const tabs = await page.getByRole('tab').count();
  const mine = page.getByRole('log', { name: 'Transcript' }).getByRole('article', { name: 'You' });
  await mine.hover();
  await mine.getByRole('button', { name: 'Fork from here' }).click();
  await expect(page.getByRole('tab')).toHaveCount(tabs + 1);
  await expect(page.getByRole('tab', { selected: true })).toContainText('Fork of');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('textbox', { name: 'Message' })).toHaveValue('change the notes');
  await expect(panel.getByRole('log', { name: 'Transcript' })).not.toContainText('Changed it.');
  // Forking changes no file.
  expect(readFileSync(file, 'utf8')).toBe('beta\n');
});

test('/rewind in the message box opens the rewind of the last message of yours', async ({
  app: page,
  project,
}) => {
  const file = await agentEdits(page, project);
  const box = page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' });
  await box.fill('/rewin');
  await expect(page.getByRole('listbox', { name: 'Commands' }).getByRole('option')).toHaveText([/^\/rewind/]);
  await box.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rewind to here' });
  await expect(dialog.getByRole('list', { name: 'Files' })).toContainText('notes.txt');
  await dialog.getByRole('button', { name: 'Rewind', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('log', { name: 'Transcript' })).not.toContainText('Changed it.');
  expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  await expect(box).toHaveValue('change the notes');
});
