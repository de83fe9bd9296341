import { expect, newSessionTab, test } from '../fixtures/test';

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
