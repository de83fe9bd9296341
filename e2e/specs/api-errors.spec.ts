import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect as baseExpect, test as baseTest } from '@playwright/test';
import { startScriptedApi } from '../../src-main/devtools/scripted-api/server';
import { dataPaths, projectSlug } from '../../src-main/platform/paths';
import { startServe, tempProject } from '../fixtures/serve';
import { expect, newSessionTab, send, test } from '../fixtures/test';

const fast = { 'retry-after-ms': '20' };

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'trigger 401' },
        times: true,
        reply: { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
      },
      // 429 and 529 are retried by the SDK (honouring retry-after) before the error surfaces.
      {
        when: { lastUserText: 'trigger 429' },
        times: true,
        reply: {
          error: {
            status: 429,
            type: 'rate_limit_error',
            message: 'Number of requests has exceeded your rate limit',
            headers: fast,
          },
        },
      },
      {
        when: { lastUserText: 'trigger 529' },
        times: true,
        reply: { error: { status: 529, type: 'overloaded_error', message: 'Overloaded', headers: fast } },
      },
      {
        when: { lastUserText: 'trigger drop' },
        times: true,
        reply: {
          content: [{ type: 'text', text: 'This reply will be cut off halfway through, sorry about that.' }],
          chunkChars: 6,
          delayMs: 30,
          dropAfterEvents: 6,
        },
      },
      // Overloaded through every attempt of the first turn (1 + 2 retries), then answered.
      {
        when: { lastUserText: 'please retry me' },
        times: 3,
        reply: { error: { status: 529, type: 'overloaded_error', message: 'Overloaded', headers: fast } },
      },
      {
        when: { lastUserText: 'please retry me' },
        reply: { content: [{ type: 'text', text: 'Answered on the second try.' }] },
      },
      {
        when: { lastUserText: 'healthy' },
        reply: {
          content: [{ type: 'text', text: `Healthy reply ${'word '.repeat(60)}DONE` }],
          chunkChars: 10,
          delayMs: 25,
        },
      },
    ],
  },
});

test('API errors show a readable message in their own tab; other tabs are unaffected', async ({
  app: page,
  api,
}) => {
  const prompts = ['healthy', 'trigger 401', 'trigger 429', 'trigger 529', 'trigger drop'];
  for (let i = 0; i < prompts.length; i++) await newSessionTab(page);
  await page.getByRole('button', { name: 'Side by side' }).click();
  await page.getByRole('button', { name: 'Tile all open tabs' }).click();
  const panels = page.getByRole('tabpanel');
  await expect(panels).toHaveCount(prompts.length);
  for (let i = 0; i < prompts.length; i++) {
    const box = panels.nth(i).getByRole('textbox', { name: 'Message' });
    await box.fill(prompts[i] ?? '');
    await box.press('Enter');
  }

  const alert = (i: number) => panels.nth(i).getByRole('log').getByRole('alert');
  await expect(alert(1)).toContainText(
    'Authentication failed (HTTP 401): invalid x-api-key. Check ANTHROPIC_API_KEY',
  );
  await expect(alert(2)).toContainText('Rate limited (HTTP 429)');
  await expect(alert(3)).toContainText('API overloaded (HTTP 529)');
  await expect(alert(4)).toContainText('The connection dropped mid-stream');
  // Each retry is announced quietly in the tab.
  await expect(panels.nth(2).getByRole('log')).toContainText('retrying in');

  // The healthy session finished normally and shows no error.
  await expect(panels.nth(0).getByRole('log')).toContainText('DONE', { timeout: 20_000 });
  await expect(alert(0)).toHaveCount(0);
  await expect(page.getByRole('tab').nth(0)).not.toHaveAttribute('data-badge', 'error');
  for (let i = 1; i < prompts.length; i++)
    await expect(page.getByRole('tab').nth(i)).toHaveAttribute('data-badge', 'error');

  // 429, 529 and the dropped connection were retried (1 + 2 attempts each); 401 never.
  const count = (text: string) =>
    api.requests.filter((r) => JSON.stringify(r.body.messages).includes(text)).length;
  expect(count('trigger 401')).toBe(1);
  expect(count('trigger 429')).toBe(3);
  expect(count('trigger 529')).toBe(3);
  expect(count('trigger drop')).toBe(3);

  // An errored session can be used again.
  await page.getByRole('tab').nth(1).click();
  await page.getByRole('button', { name: 'Side by side' }).click();
  await expect(page.getByRole('tabpanel')).toHaveCount(1);
  await expect(page.getByTestId('session-state')).toHaveText('error');
});

test('a 529 turn offers Retry: its retry notices are one line, and Retry answers without repeating the message', async ({
  app: page,
  api,
}, testInfo) => {
  await newSessionTab(page);
  await send(page, 'please retry me');
  const log = page.getByRole('log', { name: 'Transcript' });
  await expect(log.getByRole('alert')).toContainText('API overloaded (HTTP 529)');
  // Two retries, one line: the last attempt's words.
  const retries = log.locator('.notice[data-code="retry"]');
  await expect(retries).toHaveCount(1);
  await expect(retries).toContainText('attempt 2 of 2');
  const failure = log.getByRole('group', { name: 'Reply failed' });
  await expect(failure).toContainText('The reply failed');
  const retry = failure.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('turn-failed-retry.png') });

  await retry.click();
  await expect(log).toContainText('Answered on the second try.');
  await expect(failure).toHaveCount(0);
  // The person's message is shown once, and the retried request carried it once.
  await expect(log.getByRole('article', { name: 'You' })).toHaveCount(1);
  const last = api.requests.at(-1)?.body as { messages: { role: string }[] };
  expect(last.messages.map((m) => m.role)).toEqual(['user']);
  await expect(page.getByRole('tab').first()).not.toHaveAttribute('data-badge', 'error');
});

/** The streamed text a project's transcripts hold in `partial` lines (the reply in progress). */
function partialText(home: string, project: string): string {
  const dir = dataPaths(home).projectDir(projectSlug(realpathSync(project)));
  if (!existsSync(dir)) return '';
  let text = '';
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      // The last line may be half written while the reply streams.
      try {
        const parsed = JSON.parse(line) as { type?: string; text?: string };
        if (parsed.type === 'partial') text += parsed.text ?? '';
      } catch {
        continue;
      }
    }
  return text;
}

baseTest(
  'a reply the app died in (serve killed with SIGKILL) comes back interrupted with Retry after a restart',
  async ({ page }) => {
    baseTest.setTimeout(90_000);
    const story = `Once upon a time ${'there was a long story that went on and on, '.repeat(30)}THE END`;
    const api = await startScriptedApi({
      scenario: {
        steps: [
          {
            when: { lastUserText: 'tell me a story' },
            reply: { content: [{ type: 'text', text: story }], chunkChars: 4, delayMs: 40 },
          },
          {
            when: { lastUserText: 'tell me a story' },
            reply: { content: [{ type: 'text', text: 'A short story instead.' }] },
          },
        ],
      },
    });
    const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
    const project = tempProject();
    const env = { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'test-key', CARAPACE_MAX_RETRIES: '2' };
    let serve = await startServe({ home, project, env });
    try {
      await page.goto(serve.url);
      await page.getByRole('button', { name: 'New session', exact: true }).click();
      await send(page, 'tell me a story');
      const log = page.getByRole('log', { name: 'Transcript' });
      await baseExpect(log).toContainText('there was a long story');
      // What streamed is on disk in pieces (every 200 ms): wait for the pieces themselves rather
      // than a fixed time a loaded machine can outlast, then kill at once. The disk only grows,
      // so everything read here must come back.
      const onDisk = () => partialText(home, project);
      await baseExpect.poll(onDisk).toContain('there was a long story');
      const saved = onDisk();
      const exited = new Promise((resolve) => serve.child.once('exit', resolve));
      serve.child.kill('SIGKILL');
      await exited;

      serve = await startServe({ home, project, env });
      await page.goto(serve.url);
      const reply = log.getByRole('article', { name: 'Assistant' });
      await baseExpect(reply).toContainText('Once upon a time there was a long story', { timeout: 20_000 });
      await baseExpect(reply).toHaveAttribute('data-status', 'interrupted');
      // (A paragraph's trailing space is not drawn.)
      expect(await reply.innerText()).toContain(saved.trimEnd());
      const failure = log.getByRole('group', { name: 'Reply failed' });
      await baseExpect(failure).toContainText('Stopped — the app closed before the reply finished.');

      // The keyboard way: Alt+R from the message box.
      await page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' }).focus();
      await page.keyboard.press('Alt+r');
      await baseExpect(log).toContainText('A short story instead.');
      await baseExpect(failure).toHaveCount(0);
      await baseExpect(log.getByRole('article', { name: 'You' })).toHaveCount(1);
      // Asked afresh from the person's message, not from the half story.
      const last = api.requests.at(-1)?.body as { messages: { role: string }[] };
      expect(last.messages.map((m) => m.role)).toEqual(['user']);
    } finally {
      await serve.stop();
      await api.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    }
  },
);
