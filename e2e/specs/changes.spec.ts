import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

const APP = Array.from({ length: 10 }, (_, i) => `export const v${i + 1} = ${i + 1};`).join('\n') + '\n';

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'tidy the constants' },
        reply: {
          content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'src/app.ts' } }],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'export const v5' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_edit',
              name: 'Edit',
              input: {
                file_path: 'src/app.ts',
                old_string: 'export const v5 = 5;',
                new_string: 'export const fiveValue = 5;',
              },
            },
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'has been updated' },
        reply: { content: [{ type: 'text', text: 'Renamed v5.' }] },
      },
      {
        when: { lastUserText: 'Review comments' },
        reply: { content: [{ type: 'text', text: 'I will rename it back.' }] },
      },
    ],
  },
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });

function gitProject(project: string, files: Record<string, string>) {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    writeFileSync(path.join(project, name), content);
  }
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '.');
  git(project, 'commit', '-q', '-m', 'first');
}

async function openChanges(page: Page) {
  await page.getByRole('tabpanel').getByRole('button', { name: 'Changes', exact: true }).click();
  return page.getByRole('region', { name: 'Changes' });
}

test('a line comment in the Changes view reaches the model’s next request with file and line', async ({
  app: page,
  api,
  project,
}, testInfo) => {
  gitProject(project, { 'src/app.ts': APP, 'README.md': '# demo\n' });
  await newSessionTab(page);
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
  await send(page, 'tidy the constants');
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Renamed v5.');

  const view = await openChanges(page);
  await expect(view).toContainText('Uncommitted changes against HEAD');
  const file = view
    .getByRole('list', { name: 'Changed files' })
    .getByRole('button', { name: /src\/app\.ts/ });
  await expect(file).toContainText('+1');
  await expect(file).toContainText('−1');
  const diff = view.getByRole('region', { name: 'Diff of src/app.ts' });
  await expect(diff).toContainText('export const fiveValue = 5;');

  // Comment on the added line 5 (and on the removed one, to see both sides carried).
  await diff.getByRole('button', { name: 'Comment on line 5', exact: true }).click();
  await diff
    .getByRole('textbox', { name: 'Comment on src/app.ts line 5' })
    .fill('Keep the short name v5, callers use it.');
  await diff.getByRole('button', { name: 'Add comment' }).click();
  await expect(diff.getByRole('note', { name: 'Comment on src/app.ts:5' })).toContainText(
    'Keep the short name v5',
  );

  // Side by side keeps the comment under its line.
  await view.getByRole('button', { name: 'Side by side' }).click();
  await expect(diff.getByRole('note', { name: 'Comment on src/app.ts:5' })).toBeVisible();
  await diff.getByRole('button', { name: 'Comment on removed line 5' }).click();
  await diff
    .getByRole('textbox', { name: 'Comment on src/app.ts removed line 5' })
    .fill('The old name is exported.');
  await diff.getByRole('button', { name: 'Add comment' }).click();
  await expect(diff.getByRole('note')).toHaveCount(2);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'changes-1400x900.png') });
  await view.getByRole('button', { name: 'Unified' }).click();
  await page.setViewportSize({ width: 900, height: 600 });
  await expect(view.getByRole('button', { name: 'Send 2 comments' })).toBeVisible();
  await page.screenshot({ path: docsScreenshot(testInfo, 'changes-900x600.png') });

  // A comment survives closing the view and opening it again (kept per session until sent).
  await page.keyboard.press('Control+Shift+G');
  await expect(view).toBeHidden();
  await page.keyboard.press('Control+Shift+G');
  await expect(view.getByRole('button', { name: 'Send 2 comments' })).toBeEnabled();

  const before = api.requests.length;
  await view.getByRole('button', { name: 'Send 2 comments' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('I will rename it back.');
  const next = api.requests[before];
  const sent = JSON.stringify(next?.body.messages?.at(-1));
  expect(sent).toContain('src/app.ts:5');
  expect(sent).toContain('export const fiveValue = 5;');
  expect(sent).toContain('Keep the short name v5, callers use it.');
  expect(sent).toContain('src/app.ts:5 (removed line)');
  expect(sent).toContain('export const v5 = 5;');
  expect(sent).toContain('The old name is exported.');
  // Sent: the view closed and the comments are gone.
  await expect(view).toBeHidden();
  await openChanges(page);
  await expect(page.getByRole('button', { name: 'Send 0 comments' })).toBeDisabled();
});

test('a 10,000-line diff is virtualised; binary and linked files are marked; the editor is desktop-only', async ({
  app: page,
  project,
}, testInfo) => {
  const old = Array.from({ length: 5000 }, (_, i) => `const a${i} = ${i};`).join('\n') + '\n';
  gitProject(project, { 'big.ts': old, 'blob.bin': 'x' });
  writeFileSync(path.join(project, 'big.ts'), old.replaceAll('const a', 'let b'));
  writeFileSync(path.join(project, 'blob.bin'), Buffer.from([0, 1, 2, 0]));
  execFileSync('ln', ['-s', '/etc/hostname', path.join(project, 'link-out')]);
  await newSessionTab(page);
  const view = await openChanges(page);
  const files = view.getByRole('list', { name: 'Changed files' });
  await expect(files.getByRole('button', { name: /blob\.bin/ })).toContainText('binary');
  await expect(files.getByRole('button', { name: /link-out/ })).toContainText('link');

  const started = Date.now();
  await files.getByRole('button', { name: /big\.ts/ }).click();
  const diff = view.getByRole('region', { name: 'Diff of big.ts' });
  // git lists the 5,000 removed lines first, then the 5,000 added ones.
  await expect(diff).toContainText('const a0 = 0;');
  const shownMs = Date.now() - started;
  // 10,000 diff lines, a few dozen in the page.
  const inPage = await diff.locator('.cv-row').count();
  expect(inPage).toBeLessThan(200);
  await diff.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(diff).toContainText('let b4999 = 4999;');
  testInfo.annotations.push({
    type: 'timing',
    description: `10,000-line diff shown in ${shownMs} ms, ${inPage} rows in the page`,
  });
  console.log(`changes: 10,000-line diff shown in ${shownMs} ms; ${inPage} rows in the page`);

  await files.getByRole('button', { name: /blob\.bin/ }).click();
  await expect(view).toContainText('Binary file: no text diff.');
  await files.getByRole('button', { name: /link-out/ }).click();
  await expect(view.getByRole('region', { name: 'Diff of link-out' })).toContainText('/etc/hostname');
  await expect(view).toContainText('symbolic link: its target is shown, not followed');

  await view.getByRole('button', { name: 'Open in editor' }).click();
  await expect(page.getByText('not available in the browser')).toBeVisible();
});

test('stage a hunk, discard another after confirming, and commit what is staged with the suggested message', async ({
  app: page,
  project,
}) => {
  const far = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
  gitProject(project, { 'far.txt': far });
  writeFileSync(
    path.join(project, 'far.txt'),
    far.replace('row 2\n', 'row two\n').replace('row 38\n', 'row thirty-eight\n'),
  );
  writeFileSync(path.join(project, 'note.txt'), 'untracked\n');
  await newSessionTab(page);
  const view = await openChanges(page);
  await view
    .getByRole('list', { name: 'Changed files' })
    .getByRole('button', { name: /far\.txt/ })
    .click();
  const diff = view.getByRole('region', { name: 'Diff of far.txt' });
  await expect(diff.getByRole('button', { name: 'Stage hunk' })).toHaveCount(2);

  await diff.getByRole('button', { name: 'Stage hunk' }).first().click();
  await expect.poll(() => git(project, 'diff', '--cached').toString()).toContain('+row two');
  expect(git(project, 'diff', '--cached').toString()).not.toContain('thirty-eight');

  // Discarding asks first; Keep leaves the file alone.
  await diff.getByRole('button', { name: 'Discard hunk…' }).nth(1).click();
  const confirm = diff.getByRole('group', { name: 'Confirm discarding the hunk' });
  await confirm.getByRole('button', { name: 'Keep' }).click();
  expect(readFileSync(path.join(project, 'far.txt'), 'utf8')).toContain('row thirty-eight');
  await diff.getByRole('button', { name: 'Discard hunk…' }).nth(1).click();
  await confirm.getByRole('button', { name: 'Discard' }).click();
  await expect.poll(() => readFileSync(path.join(project, 'far.txt'), 'utf8')).not.toContain('thirty-eight');
  await expect(diff.getByRole('button', { name: 'Stage hunk' })).toHaveCount(1);

  await view.getByRole('button', { name: 'Commit…' }).click();
  const message = view.getByRole('textbox', { name: 'Commit message' });
  await expect(message).toHaveValue(
    /^Update 2 files\n\n- M far\.txt \(\+1 -1\)\n- A note\.txt \(\+1 -0\)\n$/,
  );
  await message.fill('Spell out row two');
  await view.getByRole('button', { name: 'Commit', exact: true }).click();
  await expect(page.getByText(/Committed [0-9a-f]{7} \(1 file\)/)).toBeVisible();
  expect(git(project, 'log', '-1', '--format=%s').toString().trim()).toBe('Spell out row two');
  // Only what was staged went in: the untracked note is still listed, far.txt is clean.
  const files = view.getByRole('list', { name: 'Changed files' });
  await expect(files.getByRole('button')).toHaveCount(1);
  await expect(files).toContainText('note.txt');
});
