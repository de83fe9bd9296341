import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';

const call = (id: string, name: string, input: Record<string, unknown>) => ({
  reply: {
    content: [{ type: 'tool_use' as const, id, name, input }],
    stop_reason: 'tool_use' as const,
  },
});
const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });

const CONFIG = [
  '# settings',
  'mode = "slow"',
  'retries = 1',
  'fallback = "slow"',
  'verbose = false',
  '',
].join('\n');

test.use({
  scenario: {
    steps: [
      // An edit of every occurrence: Read first (Edit refuses unread files), then Edit with replace_all.
      { when: { lastUserText: 'speed it up' }, ...call('r1', 'Read', { file_path: 'config.toml' }) },
      {
        when: { lastUserText: 'retries = 1' },
        ...call('e1', 'Edit', {
          file_path: 'config.toml',
          old_string: '"slow"',
          new_string: '"fast"',
          replace_all: true,
        }),
      },
      { times: true, when: { lastUserText: 'has been updated' }, ...say('Edited.') },
      // A new file.
      {
        when: { lastUserText: 'add a notes file' },
        ...call('w1', 'Write', { file_path: 'docs/NOTES.md', content: '# Notes\n\nShip on Friday.\n' }),
      },
      { times: true, when: { lastUserText: 'File created successfully' }, ...say('Written.') },
      // A destructive command that only the inbox answers.
      { when: { lastUserText: 'clean the build' }, ...call('b1', 'Bash', { command: 'rm -rf dist && ls' }) },
      { when: { lastUserText: 'clean again' }, ...call('b2', 'Bash', { command: 'rm -rf dist && ls' }) },
      { when: { lastUserText: 'make two folders' }, ...call('b3', 'Bash', { command: 'mkdir -p out/a' }) },
      { times: true, when: { lastUserText: 'Exit code' }, ...say('Done.') },
      { times: true, when: { lastUserText: 'no output' }, ...say('Done.') },
    ],
  },
});

test('an Edit asks with its diff in view, and the file then holds exactly what the diff showed', async ({
  app: page,
  project,
}) => {
  writeFileSync(path.join(project, 'config.toml'), CONFIG);
  await page.setViewportSize({ width: 1400, height: 900 });
  await newSessionTab(page);
  await send(page, 'speed it up');
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  const diff = prompt.getByLabel(/^Proposed changes to .*config\.toml$/);
  // Both occurrences (replace_all), removed and added, visible on screen, not merely in the DOM.
  for (const [op, text] of [
    ['del', 'mode = "slow"'],
    ['add', 'mode = "fast"'],
    ['del', 'fallback = "slow"'],
    ['add', 'fallback = "fast"'],
  ] as const) {
    const line = diff.locator(`.diff-${op}`, { hasText: text });
    await expect(line).toBeVisible();
    await expect(line).toBeInViewport();
  }
  await expect(diff.locator('.diff-ctx', { hasText: 'retries = 1' })).toBeVisible();
  await expect(prompt).toContainText('+2');
  await expect(prompt).toContainText('−2');
  await expect(prompt.getByRole('button', { name: 'Allow once' })).toBeInViewport();
  await page.screenshot({ path: '/tmp/shots/preview-edit-1400x900.png' });
  await page.setViewportSize({ width: 900, height: 600 });
  await expect(diff.locator('.diff-add', { hasText: 'mode = "fast"' })).toBeInViewport();
  await expect(prompt.getByRole('button', { name: 'Allow once' })).toBeInViewport();
  await expect(prompt.getByRole('button', { name: 'Deny' })).toBeInViewport();
  await page.screenshot({ path: '/tmp/shots/preview-edit-900x600.png' });

  await prompt.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Edited.');
  expect(readFileSync(path.join(project, 'config.toml'), 'utf8')).toBe(CONFIG.replaceAll('"slow"', '"fast"'));
});

test('a Write of a new file asks with the whole new content', async ({ app: page, project }) => {
  await newSessionTab(page);
  await send(page, 'add a notes file');
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toContainText('New file');
  const diff = prompt.getByLabel(/^Proposed changes to .*NOTES\.md$/);
  await expect(diff.locator('.diff-add', { hasText: '# Notes' })).toBeVisible();
  await expect(diff.locator('.diff-add', { hasText: 'Ship on Friday.' })).toBeVisible();
  await expect(diff.locator('.diff-del')).toHaveCount(0);
  await prompt.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Written.');
  expect(readFileSync(path.join(project, 'docs/NOTES.md'), 'utf8')).toBe('# Notes\n\nShip on Friday.\n');
});

test('the inbox shows the rule before A writes it, and writes exactly the text shown', async ({
  app: page,
  project,
}) => {
  const local = path.join(project, '.claude/settings.local.json');
  const allowRules = () =>
    (JSON.parse(readFileSync(local, 'utf8')) as { permissions: { allow: string[] } }).permissions.allow;
  await newSessionTab(page);
  await send(page, 'clean the build');
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await expect(inbox.getByRole('option')).toHaveCount(1);
  await inbox.focus();

  // First A: the rule appears, nothing is written yet.
  await page.keyboard.press('a');
  const rule = inbox.getByRole('textbox', { name: 'Rule to write' });
  await expect(rule).toBeVisible();
  await expect(rule).toHaveValue('Bash(rm -rf dist)');
  expect(existsSync(local)).toBe(false);
  await expect(inbox.getByRole('option')).toHaveCount(1);
  // Esc backs out; A shows it again.
  await page.keyboard.press('Escape');
  await expect(rule).toBeHidden();
  await page.keyboard.press('a');
  await expect(rule).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/inbox-rule-1280x720.png' });

  // Second A: exactly the shown text is written, and the call runs.
  const shown = await rule.inputValue();
  await page.keyboard.press('a');
  await expect(inbox).toBeHidden();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Done.');
  expect(allowRules()).toEqual([shown]);

  // The rule does what it says: the same command runs without asking.
  await send(page, 'clean again');
  await expect(
    page.getByRole('log', { name: 'Transcript' }).locator('[data-tool="Bash"]').nth(1),
  ).toHaveAttribute('data-state', 'done');

  // An edited rule is written as edited.
  await send(page, 'make two folders');
  await expect(inbox.getByRole('option')).toHaveCount(1);
  await inbox.focus();
  await page.keyboard.press('a');
  await expect(rule).toHaveValue('Bash(mkdir -p out/a)');
  await rule.fill('Bash(mkdir -p out/*)');
  await rule.press('Enter');
  await expect(inbox).toBeHidden();
  expect(allowRules()).toEqual([shown, 'Bash(mkdir -p out/*)']);
});

test('the inbox shows the selected Edit with its diff', async ({ app: page, project }) => {
  writeFileSync(path.join(project, 'config.toml'), CONFIG);
  await newSessionTab(page);
  await send(page, 'speed it up');
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await expect(inbox.getByRole('option')).toHaveCount(1);
  const diff = inbox.getByLabel(/^Proposed changes to .*config\.toml$/);
  await expect(diff.locator('.diff-del', { hasText: 'mode = "slow"' })).toBeVisible();
  await expect(diff.locator('.diff-add', { hasText: 'mode = "fast"' })).toBeVisible();
});
