import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'background job' },
        reply: {
          content: [
            { type: 'text', text: `Starting ${'carefully '.repeat(30)}now.` },
            {
              type: 'tool_use',
              id: 'toolu_w',
              name: 'Write',
              input: { file_path: 'out.txt', content: 'done\n' },
            },
          ],
          stop_reason: 'tool_use',
          // Held mid-text until the test has seen it working in the background: a 3 s stream could
          // reach its question first on a loaded machine.
          chunkChars: 4,
          hold: { afterEvents: 6, gate: 'background job' },
        },
      },
      {
        when: { lastUserText: 'File created' },
        reply: { content: [{ type: 'text', text: 'All written to out.txt.' }], chunkChars: 4, delayMs: 30 },
      },
    ],
  },
});

test('a running session sent to the background keeps working with its tab closed, says when it needs the person and when it ends', async ({
  app: page,
  api,
  context,
  project,
}) => {
  await context.grantPermissions(['notifications']);
  // Record what the app shows through the browser's real Notification API.
  await page.evaluate(() => {
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(title);
      }
    };
  });
  const shown = () =>
    page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications);

  await newSessionTab(page);
  await send(page, 'background job');
  await page.getByRole('tabpanel').getByRole('button', { name: 'Send to background' }).click();
  // Its tab closes; the sidebar keeps it, marked as in the background and working.
  await expect(page.getByRole('tab')).toHaveCount(0);
  const sidebar = page.getByRole('navigation', { name: 'Sessions' });
  const entry = sidebar.locator('[data-background="true"]');
  await expect(entry).toHaveAttribute('data-badge', 'working');
  await expect(entry).toContainText('background');
  api.release('background job');

  // It asks to write: the person is told, and answers from the Inbox without opening it.
  await expect(entry).toHaveAttribute('data-badge', 'waiting');
  await expect.poll(shown).toEqual(['background job needs you']);
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await expect(inbox).toContainText('out.txt');
  await inbox.focus();
  await page.keyboard.press('Enter');

  // It finishes with no tab open, and says so.
  await expect.poll(shown).toEqual(['background job needs you', 'background job finished']);
  expect(readFileSync(path.join(project, 'out.txt'), 'utf8')).toBe('done\n');
  await expect(entry).toHaveAttribute('data-badge', 'unseen');

  // Opening it brings it back from the background, with the whole transcript.
  await entry.click();
  await expect(page.getByRole('tab')).toHaveCount(1);
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('All written to out.txt.');
  await expect(sidebar.locator('[data-background="true"]')).toHaveCount(0);
});
