import { expect, newSessionTab, send, test } from '../fixtures/test';

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'slow job' },
        reply: {
          content: [{ type: 'text', text: `Working on it ${'step '.repeat(40)}finished.` }],
          chunkChars: 8,
          delayMs: 30,
        },
      },
      {
        when: { lastUserText: 'doomed job' },
        reply: {
          error: {
            status: 400,
            type: 'invalid_request_error',
            message: 'model: field required',
            delayMs: 1500,
          },
        },
      },
    ],
  },
});

test('a session that finishes or fails out of view gets a badge and a desktop notification', async ({
  app: page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  // Record what the app shows through the browser's real Notification API.
  await page.evaluate(() => {
    const shown: { title: string; body: string }[] = [];
    (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
    const Real = window.Notification;
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body ?? '' });
      }
    }
    window.Notification = Recording;
  });
  const shown = () =>
    page.evaluate(
      () =>
        (window as unknown as { shownNotifications: { title: string; body: string }[] }).shownNotifications,
    );

  const first = await newSessionTab(page);
  await send(page, 'slow job');
  await expect(first).toHaveAttribute('data-badge', 'working');

  // Look elsewhere while it works.
  const second = await newSessionTab(page);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(first).toHaveAttribute('data-badge', 'unseen', { timeout: 15_000 });
  await expect(first).toHaveAccessibleName('slow job, done, unseen');
  await expect
    .poll(shown)
    .toEqual([{ title: 'slow job finished', body: expect.stringContaining('Working on it') }]);

  // A failure out of view is announced too.
  await send(page, 'doomed job');
  await expect(second).toHaveAttribute('data-badge', 'working');
  await first.click();
  await expect(first).toHaveAttribute('data-badge', 'idle');
  await expect(second).toHaveAttribute('data-badge', 'error');
  await expect.poll(async () => (await shown()).length).toBe(2);
  expect((await shown())[1]).toEqual({
    title: 'doomed job failed',
    body: expect.stringContaining('Invalid request (HTTP 400)'),
  });

  // The sidebar carries the same badges.
  const sidebar = page.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar.getByRole('button', { name: 'doomed job, error' })).toBeVisible();
});
