import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';

const bash = (id: string, command: string) => ({
  reply: {
    content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }],
    stop_reason: 'tool_use' as const,
  },
});
const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });

test.use({
  scenario: {
    steps: [
      { when: { lastUserText: 'make the folder' }, ...bash('t1', 'mkdir -p build/out') },
      { when: { lastUserText: 'again please' }, ...bash('t2', 'mkdir -p build/out') },
      { when: { lastUserText: 'delete it' }, ...bash('t3', 'rm -rf build') },
      { when: { lastUserText: 'first task' }, ...bash('t4', 'touch first.txt') },
      { when: { lastUserText: 'second task' }, ...bash('t5', 'touch second.txt') },
      { when: { lastUserText: 'third task' }, ...bash('t6', 'touch third.txt') },
      { times: true, when: { lastUserText: 'Exit code' }, ...say('Done.') },
      { times: true, when: { lastUserText: 'no output' }, ...say('Done.') },
      { times: true, when: { lastUserText: 'denied' }, ...say('Understood, I will not do that.') },
    ],
  },
});

test('"Always allow" writes the rule and the same command then runs without asking; "Deny" sends feedback to the model', async ({
  app: page,
  project,
  api,
}) => {
  await newSessionTab(page);
  await send(page, 'make the folder');
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('mkdir -p build/out');
  await expect(prompt).toContainText('`mkdir` is not a known read-only command');
  await expect(page.getByRole('tab').first()).toHaveAttribute('data-badge', 'waiting');
  await expect(prompt.getByRole('textbox', { name: 'Rule' })).toHaveValue('Bash(mkdir -p build/out)');
  await prompt.getByRole('button', { name: 'Always allow' }).click();
  await expect(prompt).toBeHidden();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Done.');
  expect(existsSync(path.join(project, 'build/out'))).toBe(true);
  const local = JSON.parse(readFileSync(path.join(project, '.claude/settings.local.json'), 'utf8')) as {
    permissions: { allow: string[] };
  };
  expect(local.permissions.allow).toEqual(['Bash(mkdir -p build/out)']);

  // The same command again: no dialog, the rule decides.
  await send(page, 'again please');
  await expect(
    page.getByRole('log', { name: 'Transcript' }).locator('[data-tool="Bash"]').nth(1),
  ).toHaveAttribute('data-state', 'done');
  await expect(prompt).toBeHidden();

  // The log shows who decided what.
  await page.getByRole('button', { name: 'Permission log' }).click();
  const log = page.getByRole('region', { name: 'Permission log' });
  await expect(log.locator('li')).toHaveCount(2);
  await expect(log.locator('li').nth(0)).toHaveAttribute('data-decided-by', 'user');
  await expect(log.locator('li').nth(1)).toHaveAttribute('data-decided-by', 'rule');
  await expect(log.locator('li').nth(1)).toContainText('Bash(mkdir -p build/out) (local)');

  // Deny, with feedback the model receives.
  await send(page, 'delete it');
  await expect(prompt).toContainText('rm -rf build');
  await prompt.getByRole('textbox', { name: 'Feedback' }).fill('Keep the build folder, we need it.');
  await prompt.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText(
    'Understood, I will not do that.',
  );
  expect(existsSync(path.join(project, 'build'))).toBe(true);
  expect(JSON.stringify(api.requests.at(-1)?.body.messages)).toContain('Keep the build folder, we need it.');
  await expect(log.locator('li').nth(2)).toContainText('denied');
});

test('the inbox gathers requests of every session: Enter allows once, D denies, arrows move', async ({
  app: page,
  project,
}) => {
  for (const task of ['first task', 'second task', 'third task']) {
    await newSessionTab(page);
    await send(page, task);
  }
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await expect(inbox.getByRole('option')).toHaveCount(3);
  for (const tab of await page.getByRole('tab').all())
    await expect(tab).toHaveAttribute('data-badge', 'waiting');
  await inbox.focus();
  await page.keyboard.press('Enter'); // first: allow once
  await expect(inbox.getByRole('option')).toHaveCount(2);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('d'); // third: deny
  await expect(inbox.getByRole('option')).toHaveCount(1);
  await expect(inbox.getByRole('option')).toContainText('touch second.txt');
  await page.keyboard.press('Enter');
  await expect(inbox).toBeHidden();
  await expect
    .poll(() => ['first', 'second', 'third'].map((n) => existsSync(path.join(project, `${n}.txt`))))
    .toEqual([true, true, false]);
});

test('a past approval becomes an editable rule, listed by source in Settings, where it can be removed', async ({
  app: page,
  project,
}) => {
  await newSessionTab(page);
  await send(page, 'first task');
  await page
    .getByRole('dialog', { name: 'Permission request' })
    .getByRole('button', { name: 'Allow once' })
    .click();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Done.');
  await page.getByRole('button', { name: 'Permission log' }).click();
  const log = page.getByRole('region', { name: 'Permission log' });
  await log.getByRole('button', { name: 'Make rule…' }).click();
  // The rule offered is the one the prompt offered (the exact command), not a prefix of its first word.
  await expect(log.getByRole('textbox', { name: 'New rule' })).toHaveValue('Bash(touch first.txt)');
  await log.getByRole('textbox', { name: 'New rule' }).fill('Bash(touch *.txt)');
  await log.getByRole('button', { name: 'Save rule' }).click();
  await expect(log).toContainText('rule saved');
  const file = path.join(project, '.claude/settings.local.json');
  expect(
    (JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] } }).permissions.allow,
  ).toEqual(['Bash(touch *.txt)']);

  await page.getByRole('button', { name: 'Settings' }).click();
  const rules = page
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('region', { name: 'Permission rules' });
  await expect(rules).toContainText('Bash(touch *.txt)');
  await rules.getByRole('button', { name: 'Remove allow rule Bash(touch *.txt)' }).click();
  await expect(rules).not.toContainText('Bash(touch *.txt)');
  expect(
    (JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] } }).permissions.allow,
  ).toEqual([]);
});
