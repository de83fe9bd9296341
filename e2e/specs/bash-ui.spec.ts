import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';
import { trustFolder } from '../fixtures/trust';

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'look around' },
        reply: {
          content: [
            { type: 'text', text: 'Reading.' },
            use('q1', 'Read', { file_path: 'a.txt' }),
            use('q2', 'Grep', { pattern: 'needle' }),
            use('q3', 'Bash', { command: 'cat b.txt' }),
          ],
          stop_reason: 'tool_use',
        },
      },
      { when: { lastUserText: 'bee' }, reply: { content: [{ type: 'text', text: 'Seen enough.' }] } },
      {
        when: { lastUserText: 'start the ticker' },
        reply: {
          content: [
            use('bg', 'Bash', {
              command: 'for i in $(seq 1 600); do echo "tick $i"; sleep 0.1; done',
              description: 'Ticker',
              run_in_background: true,
            }),
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'count slowly' },
        reply: {
          content: [
            use('cnt', 'Bash', {
              command: 'for i in 1 2 3 4 5; do echo "line $i"; sleep 0.3; done',
              description: 'Count to five',
            }),
          ],
          stop_reason: 'tool_use',
        },
      },
      { when: { lastUserText: 'line 5' }, reply: { content: [{ type: 'text', text: 'Counted.' }] } },
      {
        when: { lastUserText: 'Started in the background' },
        reply: { content: [{ type: 'text', text: 'Running.' }] },
      },
    ],
  },
});

test('a run of read and search calls folds into one line that expands; no sandbox banner where the sandbox runs', async ({
  app,
  project,
}) => {
  writeFileSync(path.join(project, 'a.txt'), 'alpha needle\n');
  writeFileSync(path.join(project, 'b.txt'), 'bee\n');
  await newSessionTab(app);
  await send(app, 'look around');
  const panel = app.getByRole('tabpanel');
  await expect(panel.getByRole('article', { name: 'Assistant' }).getByText('Seen enough.')).toBeVisible();
  const fold = panel.getByText('Read 2 files, searched 1 pattern');
  await expect(fold).toBeVisible();
  // Folded: the individual cards are hidden until the line is opened.
  const bashCard = panel.locator('.tool-card[data-tool="Bash"]');
  await expect(bashCard).toBeHidden();
  await fold.click();
  await expect(bashCard).toBeVisible();
  await expect(bashCard).toContainText('cat b.txt');
  await expect(panel.locator('.tool-card')).toHaveCount(3);
  await expect(app.getByRole('status', { name: 'Sandbox' })).toHaveCount(0);
});

test('a running Bash card shows its command and live output, folds when done, and its time leaves out the approval wait', async ({
  app,
  project,
  serve,
}) => {
  // Outside the sandbox: the card is under test here, not the sandbox's start-up time.
  mkdirSync(path.join(project, '.claude'));
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({ sandbox: { enabled: false } }),
  );
  trustFolder(serve.home, project);
  await app.reload();
  await newSessionTab(app);
  await send(app, 'count slowly');
  const prompt = app.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toBeVisible();
  // The person takes 2 s to decide.
  await app.waitForTimeout(2000);
  const allowedAt = Date.now();
  await prompt.getByRole('button', { name: 'Allow once' }).click();
  const card = app.getByRole('log', { name: 'Transcript' }).locator('.tool-card[data-tool="Bash"]');
  // Running: open on the command and the output so far.
  await expect(card.locator('.tool-live')).toContainText('line 2');
  await expect(card).toHaveAttribute('data-state', 'running');
  await expect(card).toHaveJSProperty('open', true);
  await expect(card.getByLabel('Command')).toContainText('for i in 1 2 3 4 5');
  // Done: folded to its line, which says how it ended and how long it ran.
  await expect(card).toHaveAttribute('data-state', 'done');
  const sinceAllowed = (Date.now() - allowedAt) / 1000;
  await expect(card).toHaveJSProperty('open', false);
  await expect(card.locator('.tool-detail')).toHaveText('exit 0');
  const took = (await card.locator('.tool-duration').innerText()).trim();
  const seconds = took.endsWith(' ms') ? Number.parseFloat(took) / 1000 : Number.parseFloat(took);
  // At least the command's own 1.5 s of sleeps; and no more than the time from Allow to done, which
  // the 2 s the person took would exceed (0.05 s: the shown figure is rounded). Not "under 3 s": a
  // loaded machine can take that long to run it.
  expect(seconds).toBeGreaterThan(1);
  expect(seconds).toBeLessThanOrEqual(sinceAllowed + 0.05);
  await expect(app.getByRole('log', { name: 'Transcript' })).toContainText('Counted.');
  // The person can still open it.
  await card.locator('summary').first().click();
  await expect(card).toHaveJSProperty('open', true);
  await expect(card.locator('.tool-output')).toContainText('line 5');
});

test('a background command is listed with live output, a Stop button, and ends stopped', async ({
  app,
  project,
  serve,
}) => {
  // Sandboxed commands may run without asking in this project.
  mkdirSync(path.join(project, '.claude'));
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true } }),
  );
  trustFolder(serve.home, project);
  await newSessionTab(app);
  await send(app, 'start the ticker');
  const tasks = app.getByRole('region', { name: 'Background tasks' });
  await expect(tasks).toBeVisible();
  const task = tasks.getByRole('listitem', { name: 'Task Ticker' });
  await expect(task.getByLabel('Output')).toContainText('tick 3');
  await expect(task).toContainText('running');
  await task.getByRole('button', { name: 'Stop' }).click();
  await expect(task).toContainText('stopped');
  await expect(task.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  // The list survives a reload: it comes from the main process.
  await app.reload();
  await expect(
    app.getByRole('region', { name: 'Background tasks' }).getByRole('listitem', { name: 'Task Ticker' }),
  ).toContainText('stopped');
});

test.describe('where the sandbox cannot start', () => {
  test.use({ serveEnv: { CARAPACE_BWRAP: '/nonexistent/bwrap' } });
  test('a banner says commands run without it, and why', async ({ app }) => {
    const banner = app.getByRole('status', { name: 'Sandbox' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('bubblewrap was not found at /nonexistent/bwrap');
    await expect(banner).toContainText('Every command that is not read-only asks first');
  });
});
