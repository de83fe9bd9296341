import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, test } from '../fixtures/test';

test.use({
  scenario: { steps: [{ times: true, reply: { content: [{ type: 'text', text: 'On it, DONE.' }] } }] },
});

function writeCommand(project: string, rel: string, text: string): void {
  const file = path.join(project, '.claude', 'commands', rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

test('typing / opens the command list: filtered as you type, arrows and Esc, focus stays in the box', async ({
  app: page,
  project,
}) => {
  writeCommand(
    project,
    'fix-issue.md',
    '---\ndescription: Fix a GitHub issue by number\nargument-hint: [number]\n---\nPlease fix GitHub issue #$ARGUMENTS.',
  );
  writeCommand(project, 'frontend/component.md', 'Create a React component named $1.');
  await page.setViewportSize({ width: 1400, height: 900 });
  await newSessionTab(page);
  const box = page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' });
  await box.click();
  await box.press('/');
  const list = page.getByRole('listbox', { name: 'Commands' });
  await expect(list).toBeVisible();
  // /agents opens Settings → Agents (agents-page.spec.ts).
  for (const name of [
    '/agents',
    '/cost',
    '/model',
    '/compact',
    '/help',
    '/rewind',
    '/fix-issue',
    '/frontend:component',
  ])
    await expect(list.getByRole('option', { name: new RegExp(`^${name}\\b`) })).toBeVisible();
  // The list sits right above the box, as wide as it.
  const [listBox, textBox] = [await list.boundingBox(), await box.boundingBox()];
  expect(listBox && textBox && listBox.y + listBox.height <= textBox.y + 1).toBe(true);
  await page.screenshot({ path: docsScreenshot(test.info(), 'slash-commands-1400x900.png') });

  await box.pressSequentially('co');
  await expect(list.getByRole('option')).toHaveText([/^\/compact/, /^\/cost/, /^\/frontend:component/]);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowDown');
  await expect(list.getByRole('option', { name: /^\/cost/ })).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowUp');
  await box.press('ArrowUp');
  // Up from the top wraps to the last row.
  await expect(list.getByRole('option', { name: /^\/frontend:component/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute('aria-activedescendant', /.+/);

  // Esc closes the list only: the draft stays, the box keeps the cursor, nothing was sent.
  await box.press('Escape');
  await expect(list).toBeHidden();
  await expect(box).toHaveValue('/co');
  await expect(box).toBeFocused();
  // Typing on opens it again.
  await box.press('m');
  await expect(list.getByRole('option')).toHaveText([/^\/compact/, /^\/frontend:component/]);

  // Tab completes a command that takes arguments; Enter then sends it, expanded by the main process.
  await box.fill('/fix');
  await expect(list.getByRole('option')).toHaveText([/^\/fix-issue/]);
  await box.press('Tab');
  await expect(box).toHaveValue('/fix-issue ');
  await expect(list).toBeHidden();
  await box.pressSequentially('42');
  await box.press('Enter');
  const log = page.getByRole('tabpanel').getByRole('log');
  await expect(log).toContainText('Please fix GitHub issue #42.');
  await expect(log).toContainText('DONE');

  // /compact is run by the session's engine: Enter on it compacts the conversation so far.
  await box.fill('/comp');
  await box.press('Enter');
  await expect(log).toContainText(/Conversation compacted \(manual\)/);
  await expect(box).toHaveValue('');

  await page.setViewportSize({ width: 900, height: 600 });
  await box.fill('/');
  await expect(list).toBeVisible();
  // At 900×600 the list stays inside the window and each row on one line.
  const fits = await list.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const rows = [...el.querySelectorAll('[role="option"]')].map((o) => o.getBoundingClientRect().height);
    return { top: r.top, right: r.right, width: window.innerWidth, tallest: Math.max(...rows) };
  });
  expect(fits.top).toBeGreaterThanOrEqual(0);
  expect(fits.right).toBeLessThanOrEqual(fits.width);
  expect(fits.tallest).toBeLessThan(40);
  await page.screenshot({ path: docsScreenshot(test.info(), 'slash-commands-900x600.png') });
});

test('/cost opens the session cost view; /model picks a model from the list and the status bar shows it', async ({
  app: page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await newSessionTab(page);
  const box = page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' });
  const list = page.getByRole('listbox', { name: 'Commands' });
  const model = page.locator('footer.statusbar').getByRole('combobox', { name: 'Model' });

  await box.fill('/cos');
  await expect(list.getByRole('option')).toHaveText([/^\/cost/]);
  await box.press('Enter');
  const view = page.getByRole('dialog', { name: 'Session cost' });
  await expect(view).toBeVisible();
  await expect(box).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
  await expect(box).toBeFocused();

  // /model, Enter: the list becomes the models; typing filters them; Enter switches.
  await box.fill('/model');
  await box.press('Enter');
  await expect(box).toHaveValue('/model ');
  await expect(list.getByRole('option', { name: /claude-opus-4-5/ })).toBeVisible();
  await box.pressSequentially('haiku');
  await expect(list.getByRole('option')).toHaveText([/claude-haiku-4-5/]);
  await box.press('Enter');
  await expect(model).toHaveValue('claude-haiku-4-5');
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();

  // /model <name> typed in full and sent with the list closed switches too.
  await box.fill('/model claude-opus-4-5');
  await box.press('Escape');
  await box.press('Enter');
  await expect(model).toHaveValue('claude-opus-4-5');

  // /help lists the commands; an unknown /name is refused and the text stays in the box.
  await box.fill('/help');
  await box.press('Enter');
  const help = page.getByRole('dialog', { name: 'Slash commands' });
  await expect(help).toContainText('/compact');
  await page.setViewportSize({ width: 900, height: 600 });
  // The list of commands fits the window at 900×600 (its own scroll, no sideways overflow).
  expect(await help.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('slash-help-900x600.png') });
  await page.keyboard.press('Escape');
  // /resume lists archived sessions; /permissions opens Settings at the rules.
  await box.fill('/resume');
  await box.press('Enter');
  const archive = page.getByRole('dialog', { name: 'Archived and deleted sessions' });
  await expect(archive).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(archive).toBeHidden();
  await box.fill('/permissions');
  await box.press('Enter');
  const rules = page
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('region', { name: 'Permission rules' });
  await expect(rules).toBeFocused();
  await page.keyboard.press('Escape');
  await box.fill('/no-such-command now');
  await box.press('Enter');
  await expect(page.getByText('Unknown slash command: /no-such-command')).toBeVisible();
  await expect(box).toHaveValue('/no-such-command now');
});
