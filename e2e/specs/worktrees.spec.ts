import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { docsScreenshot } from '../fixtures/screenshots';
import { startServe, tempProject } from '../fixtures/serve';
import { expect, send, test } from '../fixtures/test';

/** The original second line: read results hold it, edit results no longer do. */
const ORIGINAL = 'line-two-original';

const readThenEdit = (prompt: string, replacement: string) => [
  {
    when: { lastUserText: prompt },
    reply: {
      content: [
        { type: 'tool_use' as const, id: `read-${replacement}`, name: 'Read', input: { file_path: 'a.txt' } },
      ],
      stop_reason: 'tool_use' as const,
    },
  },
  {
    when: { lastUserText: ORIGINAL },
    reply: {
      content: [
        {
          type: 'tool_use' as const,
          id: `edit-${replacement}`,
          name: 'Edit',
          input: { file_path: 'a.txt', old_string: ORIGINAL, new_string: replacement },
        },
      ],
      stop_reason: 'tool_use' as const,
    },
  },
];

test.use({
  scenario: {
    steps: [
      ...readThenEdit('edit one', 'FROM-ONE'),
      ...readThenEdit('edit two', 'FROM-TWO'),
      { times: true, reply: { content: [{ type: 'text', text: 'Edited.' }] } },
    ],
  },
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/** What "changes nothing" means for the main checkout: HEAD, index, files, and no merge under way. */
const mainState = (dir: string) => ({
  head: git(dir, 'rev-parse', 'HEAD'),
  index: git(dir, 'write-tree'),
  status: git(dir, 'status', '--porcelain', '--untracked-files=all'),
  merging: existsSync(path.join(dir, '.git', 'MERGE_HEAD')),
  file: readFileSync(path.join(dir, 'a.txt'), 'utf8'),
});

/** Worktree folders by branch, as git lists them. */
function worktrees(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let current = '';
  for (const line of git(dir, 'worktree', 'list', '--porcelain').split('\n')) {
    if (line.startsWith('worktree ')) current = line.slice('worktree '.length);
    if (line.startsWith('branch refs/heads/')) out.set(line.slice('branch refs/heads/'.length), current);
  }
  return out;
}

/** `project` as a git repository on main with one commit: a.txt holding ORIGINAL on its second line. */
function initRepo(project: string) {
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'config', 'user.name', 'E2E');
  git(project, 'config', 'user.email', 'e2e@example.com');
  writeFileSync(path.join(project, 'a.txt'), `line one\n${ORIGINAL}\nline three\n`);
  git(project, 'add', '.');
  git(project, 'commit', '-q', '-m', 'first');
}

async function worktreeSession(page: Page, prompt: string) {
  const before = await page.getByRole('tab').count();
  await page.getByRole('button', { name: 'New session with options' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByRole('checkbox', { name: 'Own worktree' }).check();
  await expect(dialog.getByRole('combobox', { name: 'Base branch' })).toHaveValue('main');
  await dialog.getByRole('button', { name: 'Start session' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('tab')).toHaveCount(before + 1);
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
  await send(page, prompt);
  await expect(page.getByRole('tabpanel').getByRole('log', { name: 'Transcript' })).toContainText('Edited.');
}

test('two sessions in worktrees edit the same file apart; one merge fast-forwards, the other is refused and changes nothing', async ({
  app: page,
  project,
}) => {
  initRepo(project);
  const original = mainState(project);

  await worktreeSession(page, 'edit one');
  await worktreeSession(page, 'edit two');

  // Each session edited its own worktree; the main checkout is untouched.
  const wts = [...worktrees(project).entries()].filter(([b]) => b.startsWith('carapace/'));
  expect(wts).toHaveLength(2);
  const contents = wts.map(([, dir]) => readFileSync(path.join(dir, 'a.txt'), 'utf8')).sort();
  expect(contents).toEqual([`line one\nFROM-ONE\nline three\n`, `line one\nFROM-TWO\nline three\n`]);
  expect(mainState(project)).toEqual(original);
  const [first, second] = ['FROM-ONE', 'FROM-TWO'].map((word) => {
    const hit = wts.find(([, dir]) => readFileSync(path.join(dir, 'a.txt'), 'utf8').includes(word));
    if (!hit) throw new Error(`no worktree holds ${word}`);
    return hit;
  }) as [[string, string], [string, string]];

  // The sidebar groups them by worktree, with the branch and ↑ahead ↓behind.
  const groupOne = page.getByRole('region', { name: `Worktree ${first[0]}` });
  const groupTwo = page.getByRole('region', { name: `Worktree ${second[0]}` });
  await expect(groupOne).toContainText('↑0 ↓0');
  await expect(groupOne).toContainText('1 changed');
  await expect(groupTwo).toBeVisible();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-sidebar-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-sidebar-900x600.png') });
  await page.setViewportSize({ width: 1400, height: 900 });

  // The first merges by fast-forward.
  await groupOne.getByRole('button', { name: `Finish worktree ${first[0]}` }).click();
  const closeOne = page.getByRole('dialog', { name: `Close worktree ${first[0]}` });
  await closeOne.getByRole('button', { name: 'Merge into main' }).click();
  await expect(closeOne.getByRole('status')).toContainText('main fast-forwarded');
  await closeOne.getByRole('button', { name: 'Keep' }).click();
  expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe(`line one\nFROM-ONE\nline three\n`);
  expect(git(project, 'rev-list', '--parents', '-1', 'HEAD').trim().split(' ')).toHaveLength(2);
  expect(git(project, 'status', '--porcelain')).toBe('');
  await expect(groupTwo).toContainText('↓1');

  // Closing the second one's tab offers the same choices; its merge conflicts and changes nothing.
  const merged = mainState(project);
  await page.getByRole('tab').last().click();
  await page
    .getByRole('tab')
    .last()
    .getByRole('button', { name: /^Close / })
    .click();
  const closeTwo = page.getByRole('dialog', { name: `Close worktree ${second[0]}` });
  await expect(closeTwo).toBeVisible();
  await closeTwo.getByRole('button', { name: 'Merge into main' }).click();
  await expect(closeTwo.getByRole('alert')).toContainText('would conflict in a.txt; nothing was changed');
  expect(mainState(project)).toEqual(merged);
  expect(readFileSync(path.join(second[1], 'a.txt'), 'utf8')).toBe(`line one\nFROM-TWO\nline three\n`);
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-close-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-close-900x600.png') });

  // Delete: the refused merge committed the worktree's edit, a commit no other branch has, so it asks
  // first; then the worktree and its branch go, and the main checkout stays as merged.
  await closeTwo.getByRole('button', { name: 'Delete worktree and branch' }).click();
  await expect(closeTwo.getByRole('alert')).toContainText(
    `Deleting loses 1 commit on ${second[0]} that no other branch has.`,
  );
  await closeTwo.getByRole('button', { name: 'Delete anyway' }).click();
  await expect(closeTwo.getByRole('status')).toContainText(
    `Deleted the worktree and the branch ${second[0]}`,
  );
  expect(existsSync(second[1])).toBe(false);
  expect(git(project, 'branch', '--list', second[0]).trim()).toBe('');
  expect(mainState(project)).toEqual(merged);
});

test('with the setting worktrees.default on, a new session gets its own worktree; the options can still start a plain one', async ({
  page,
  api,
}) => {
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ worktrees: { default: true } }));
  const project = tempProject();
  git(project, 'init', '-q', '-b', 'trunk');
  git(
    project,
    '-c',
    'user.name=E',
    '-c',
    'user.email=e@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'x',
  );
  const serve = await startServe({
    project,
    home,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'test-key' },
  });
  try {
    await page.goto(serve.url);
    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(page.getByRole('tab')).toHaveCount(1);
    await expect(
      page.getByRole('region', { name: /^Worktree carapace\/session-[0-9a-f]{8}$/ }),
    ).toBeVisible();
    expect([...worktrees(project).keys()].filter((b) => b.startsWith('carapace/'))).toHaveLength(1);
    expect(git(project, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('trunk');

    await page.getByRole('button', { name: 'New session with options' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    const own = dialog.getByRole('checkbox', { name: 'Own worktree' });
    await expect(own).toBeChecked();
    await expect(dialog.getByRole('combobox', { name: 'Base branch' })).toHaveValue('trunk');
    await own.uncheck();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    await expect(page.getByRole('tab')).toHaveCount(2);
    const plain = page.getByRole('navigation', { name: 'Sessions' }).locator('> ul');
    await expect(plain.getByRole('button')).toHaveCount(1);
    expect([...worktrees(project).keys()].filter((b) => b.startsWith('carapace/'))).toHaveLength(1);
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});

test('deleting a worktree session asks about unmerged commits, archives it, and restored its composer offers the main checkout', async ({
  app: page,
  project,
}) => {
  initRepo(project);
  await worktreeSession(page, 'edit one');
  const tab = page.getByRole('tab', { selected: true });
  await tab.dblclick();
  await page.getByRole('textbox', { name: 'Session name' }).fill('Doomed');
  await page.getByRole('textbox', { name: 'Session name' }).press('Enter');
  await expect(page.getByRole('tab', { name: 'Doomed' })).toBeVisible();
  const [[branch, dir]] = [...worktrees(project).entries()].filter(([b]) => b.startsWith('carapace/')) as [
    [string, string],
  ];
  const group = page.getByRole('region', { name: `Worktree ${branch}` });
  await expect(group).toContainText('↑0 ↓0');
  await expect(group).toContainText('1 changed');
  // Committing the agent's edit from the Changes view moves the branch: the sidebar says so at once.
  const changes = page.getByRole('tabpanel').getByRole('button', { name: 'Changes', exact: true });
  await changes.click();
  const view = page.getByRole('region', { name: 'Changes' });
  await view.getByRole('button', { name: 'Commit…' }).click();
  await view.getByRole('textbox', { name: 'Commit message' }).fill('The agent edit');
  await view.getByRole('button', { name: 'Commit', exact: true }).click();
  await expect(page.getByText(/Committed [0-9a-f]{7} \(1 file\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(group).toContainText('↑1 ↓0');
  await expect(group).not.toContainText('changed');
  await changes.click();
  // An uncommitted file beside it.
  writeFileSync(path.join(dir, 'b.txt'), 'not committed\n');

  // Delete asks first, naming what would be lost; nothing goes until confirmed.
  await group.getByRole('button', { name: `Finish worktree ${branch}` }).click();
  const dialog = page.getByRole('dialog', { name: `Close worktree ${branch}` });
  // Its counts are read afresh on opening (b.txt was written behind the app's back).
  await expect(dialog).toContainText('1 ahead, 0 behind; 1 uncommitted file.');
  await dialog.getByRole('button', { name: 'Delete worktree and branch' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    `Deleting loses 1 uncommitted file (b.txt) and 1 commit on ${branch} that no other branch has. Delete anyway?`,
  );
  expect(existsSync(path.join(dir, 'b.txt'))).toBe(true);
  expect(git(project, 'branch', '--list', branch)).not.toBe('');
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-delete-ask-900x600.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
  await dialog.getByRole('button', { name: 'Delete anyway' }).click();
  await expect(dialog.getByRole('status')).toContainText('The session is archived');
  expect(existsSync(dir)).toBe(false);
  expect(git(project, 'branch', '--list', branch).trim()).toBe('');
  expect([...worktrees(project).keys()].filter((b) => b.startsWith('carapace/'))).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('tab', { name: 'Doomed' })).toHaveCount(0);
  await expect(group).toHaveCount(0);

  // Restored from the archive, it reads as before; its composer says why it cannot go on, and the way on.
  await page.getByRole('button', { name: 'Archived and deleted sessions' }).click();
  const archive = page.getByRole('dialog', { name: 'Archived and deleted sessions' });
  await archive.getByRole('button', { name: 'Archived', exact: true }).click();
  await archive.getByRole('button', { name: 'Restore Doomed' }).click();
  await archive.getByRole('button', { name: 'Close' }).click();
  await page
    .getByRole('navigation', { name: 'Sessions' })
    .getByRole('button', { name: /Doomed/ })
    .click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('log', { name: 'Transcript' })).toContainText('Edited.');
  const gone = panel.getByRole('region', { name: 'Worktree gone' });
  await expect(gone).toContainText(`Its worktree was deleted (${dir} no longer exists).`);
  await expect(gone).toContainText('fork it to continue in the main checkout');
  await expect(page.getByRole('region', { name: `Worktree ${branch}` })).not.toContainText('↑');
  await expect(panel.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Worktree ${branch}` })).toContainText('removed');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-gone-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(test.info(), 'worktrees-gone-900x600.png') });
  await page.setViewportSize({ width: 1400, height: 900 });

  // Continued in the main checkout: a new session with the conversation, where the agent can work.
  await gone.getByRole('button', { name: 'Continue in main checkout' }).click();
  await expect(page.getByRole('tab', { name: 'Doomed (main checkout)', selected: true })).toBeVisible();
  const next = page.getByRole('tabpanel');
  await expect(next.getByRole('log', { name: 'Transcript' })).toContainText('edit one');
  await expect(next.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
  await send(page, 'edit two');
  await expect(next.getByRole('log', { name: 'Transcript' }).getByText('Edited.')).toHaveCount(2);
  // Its tools work in the main checkout now.
  expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe(`line one\nFROM-TWO\nline three\n`);
});

test('a worktree folder removed by hand is found when its session is opened; its git record is pruned and the branch kept', async ({
  app: page,
  project,
}) => {
  initRepo(project);
  await worktreeSession(page, 'edit one');
  const [[branch, dir]] = [...worktrees(project).entries()].filter(([b]) => b.startsWith('carapace/')) as [
    [string, string],
  ];
  rmSync(dir, { recursive: true, force: true });
  await page.reload();
  const gone = page.getByRole('tabpanel').getByRole('region', { name: 'Worktree gone' });
  await expect(gone).toContainText(`Its worktree was deleted (${dir} no longer exists).`);
  await expect(page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Worktree ${branch}` })).toContainText('removed');
  expect(worktrees(project).has(branch)).toBe(false);
  expect(git(project, 'branch', '--list', branch).trim()).toBe(branch);
});
