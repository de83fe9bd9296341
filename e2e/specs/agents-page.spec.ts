import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, test } from '../fixtures/test';

/**
 * Settings → Agents in Chromium over serve mode: `/agents` opens it; the fixture project's broken
 * agent file is listed with the loader's message; an agent made with the New agent form is written
 * to `.claude/agents/<name>.md` and listed; an edit the parser refuses keeps the text and the file;
 * a project file overrides the user's of the same name; Delete confirms first.
 */

// The person's home and Carapace's folder for this run: no real user agents leak in.
const USER_HOME = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-agents-user-'));
const CARAPACE_HOME = mkdtempSync(path.join(tmpdir(), 'carapace-e2e-agents-home-'));

test.use({ serveEnv: { HOME: USER_HOME, CARAPACE_HOME } });

test('/agents opens Settings → Agents; create, edit with a parser error, override and delete', async ({
  app: page,
  project,
}, testInfo) => {
  const agentsDir = path.join(project, '.claude', 'agents');
  mkdirSync(agentsDir, { recursive: true });
  writeFileSync(path.join(agentsDir, 'broken.md'), '---\nname: broken\n---\nNo description here.\n');
  mkdirSync(path.join(CARAPACE_HOME, 'agents'), { recursive: true });
  writeFileSync(
    path.join(CARAPACE_HOME, 'agents', 'reviewer.md'),
    '---\nname: reviewer\ndescription: The user-wide reviewer\n---\nUser prompt.\n',
  );

  await page.setViewportSize({ width: 1400, height: 900 });
  await newSessionTab(page);
  const box = page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' });
  await box.fill('/agents');
  await box.press('Enter');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(
    settings.getByRole('navigation', { name: 'Settings pages' }).getByRole('button', { name: 'Agents' }),
  ).toHaveAttribute('aria-current', 'page');
  const agents = settings.getByRole('region', { name: 'Agents settings' });
  // Focus lands on the page, not on the composer behind the dialog.
  await expect(agents.locator('section[aria-label="Agents"]')).toBeFocused();

  // The broken file is shown with its file and the loader's words.
  const problems = agents.getByRole('region', { name: 'Agent files not loaded' });
  await expect(problems).toContainText(path.join(agentsDir, 'broken.md'));
  await expect(problems).toContainText('Not loaded: description is missing.');
  // Built-ins are listed read-only; the user's reviewer is active for now.
  const builtins = agents.getByRole('region', { name: 'Built-in agents' });
  await expect(builtins.getByRole('listitem', { name: 'Agent Explore' })).toContainText('model: haiku');
  await expect(builtins.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
  const userGroup = agents.getByRole('region', { name: 'User agents' });
  await expect(userGroup.getByRole('listitem', { name: 'Agent reviewer' })).not.toContainText('overridden');

  // New agent, from the keyboard.
  await agents.getByRole('button', { name: 'New agent…' }).click();
  const form = agents.getByRole('form', { name: 'New agent' });
  await expect(form.getByLabel('Name')).toBeFocused();
  await form.getByLabel('Name').fill('Bad/Name');
  await form.getByLabel('Description').fill('Reviews diffs: finds bugs');
  await form.getByLabel('Tools').fill('Read, Grep, Bash(git diff *)');
  await form.getByLabel('Model').selectOption('sonnet');
  await form.getByLabel('Prompt').fill('You are the project reviewer.');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByRole('alert')).toContainText('may not contain / or \\');
  await expect(form.getByLabel('Prompt')).toHaveValue('You are the project reviewer.');
  await form.getByLabel('Name').fill('reviewer');
  await form.getByLabel('Name').press('Enter');
  await expect(form).toBeHidden();
  await expect(agents.getByRole('button', { name: 'New agent…' })).toBeFocused();

  const file = path.join(agentsDir, 'reviewer.md');
  expect(existsSync(file)).toBe(true);
  const written = readFileSync(file, 'utf8');
  expect(written).toContain('name: reviewer');
  expect(written).toContain('tools: Read, Grep, Bash(git diff *)');
  expect(written).toContain('model: sonnet');
  const projectGroup = agents.getByRole('region', { name: 'Project agents' });
  const row = projectGroup.getByRole('listitem', { name: 'Agent reviewer' });
  await expect(row).toContainText('Reviews diffs: finds bugs');
  await expect(row).toContainText('Tools: Read, Grep, Bash(git diff *)');
  await expect(row).toContainText(file);
  // The project's file now wins over the user's of the same name.
  await expect(userGroup.getByRole('listitem', { name: 'Agent reviewer' })).toContainText(
    `overridden by ${file}`,
  );

  await page.screenshot({ path: docsScreenshot(testInfo, 'agents-page-1400x900.png') });

  // Edit: a fault from the parser is shown, the text stays as typed and the file is unchanged.
  await row.getByRole('button', { name: 'Edit reviewer' }).click();
  const editor = row.getByRole('textbox', { name: 'Text of reviewer.md' });
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue(written);
  const broken = written.replace('model: sonnet', 'model: sonnet\nmaxTurns: lots');
  await editor.fill(broken);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('alert')).toContainText('maxTurns must be a whole number above 0');
  await expect(editor).toHaveValue(broken);
  expect(readFileSync(file, 'utf8')).toBe(written);
  // Escape with unsaved text keeps the editor (and Settings) open.
  await editor.press('Escape');
  await expect(editor).toBeVisible();
  await expect(settings).toBeVisible();

  await page.setViewportSize({ width: 900, height: 600 });
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: docsScreenshot(testInfo, 'agents-page-edit-900x600.png') });

  await editor.fill(written.replace('Reviews diffs: finds bugs', 'Reviews diffs carefully'));
  await editor.press('Control+Enter');
  await expect(editor).toBeHidden();
  await expect(row.getByRole('button', { name: 'Edit reviewer' })).toBeFocused();
  await expect(row).toContainText('Reviews diffs carefully');
  expect(readFileSync(file, 'utf8')).toContain('description: "Reviews diffs carefully"');

  // Delete the broken file: a second button confirms.
  const brokenEntry = problems.getByRole('listitem');
  await brokenEntry.getByRole('button', { name: /^Delete .*broken\.md…$/ }).click();
  const confirm = brokenEntry.getByRole('button', { name: 'Delete broken.md' });
  await expect(confirm).toBeFocused();
  await confirm.press('Enter');
  await expect(problems).toBeHidden();
  expect(existsSync(path.join(agentsDir, 'broken.md'))).toBe(false);
  await expect(agents.getByRole('button', { name: 'New agent…' })).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(agents.getByRole('form', { name: 'New agent' }).getByLabel('Name')).toBeFocused();
  await page.screenshot({ path: docsScreenshot(testInfo, 'agents-page-new-900x600.png') });
  // Escape leaves the form, not Settings.
  await page.keyboard.press('Escape');
  await expect(agents.getByRole('form', { name: 'New agent' })).toBeHidden();
  await expect(settings).toBeVisible();
});
