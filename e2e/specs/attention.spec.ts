import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { tempProject } from '../fixtures/serve';
import { expect, newSessionTab, send, test } from '../fixtures/test';

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'slow job' },
        reply: {
          content: [{ type: 'text', text: `Working on it ${'step '.repeat(40)}finished.` }],
          // Held until the second tab is shown (a fixed 3 s stream could end before it on a loaded
          // machine, and then it had not finished out of view).
          hold: { afterEvents: 0, gate: 'slow job' },
        },
      },
      {
        // Slow enough for the person to go back to the other project before it asks.
        when: { lastUserText: 'write in beta' },
        reply: {
          content: [
            { type: 'text', text: `Preparing ${'carefully '.repeat(40)}now.` },
            {
              type: 'tool_use',
              id: 'toolu_beta',
              name: 'Write',
              input: { file_path: 'beta.txt', content: 'from beta\n' },
            },
          ],
          stop_reason: 'tool_use',
          // Held until the person is back in the other project, however long opening it takes.
          hold: { afterEvents: 0, gate: 'write in beta' },
        },
      },
      {
        when: { lastUserText: 'File created' },
        reply: { content: [{ type: 'text', text: 'Beta is written.' }] },
      },
      {
        when: { lastUserText: 'doomed job' },
        reply: {
          error: {
            status: 400,
            type: 'invalid_request_error',
            message: 'model: field required',
            // Answered once the person has looked away from its session.
            hold: { gate: 'doomed job' },
          },
        },
      },
    ],
  },
});

test('a session that finishes or fails out of view gets a badge and a desktop notification', async ({
  app: page,
  api,
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
  api.release('slow job');
  await expect(first).toHaveAttribute('data-badge', 'unseen');
  await expect(first).toHaveAccessibleName('slow job, done, unseen');
  await expect
    .poll(shown)
    .toEqual([{ title: 'slow job finished', body: expect.stringContaining('Working on it') }]);

  // A failure out of view is announced too.
  await send(page, 'doomed job');
  await expect(second).toHaveAttribute('data-badge', 'working');
  await first.click();
  await expect(first).toHaveAttribute('data-badge', 'idle');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  api.release('doomed job');
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

/** Records what the app shows through the browser's real Notification API, and lets a test click one. */
async function recordNotifications(page: Page) {
  await page.evaluate(() => {
    const shown: Notification[] = [];
    (window as unknown as { shownNotifications: Notification[] }).shownNotifications = shown;
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(this);
      }
    };
  });
  return {
    shown: () =>
      page.evaluate(() =>
        (window as unknown as { shownNotifications: Notification[] }).shownNotifications.map((n) => ({
          title: n.title,
          body: n.body,
        })),
      ),
    /** What a click on the notification does (the system calls its onclick). */
    click: (index: number) =>
      page.evaluate((i) => {
        const n = (window as unknown as { shownNotifications: Notification[] }).shownNotifications[i];
        n?.onclick?.call(n, new Event('click'));
      }, index),
  };
}

async function openProjectFolder(page: Page, folder: string) {
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Open project' });
  await dialog.getByLabel('Folder path').fill(folder);
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.project-name')).toHaveText(path.basename(folder));
}

test('a session of another open project that asks for approval shows in the Inbox with its project, fires a notification, and goes on once approved there', async ({
  app: page,
  api,
  context,
  project: alpha,
}) => {
  await context.grantPermissions(['notifications']);
  const notifications = await recordNotifications(page);
  const beta = tempProject('beta');
  try {
    const betaName = path.basename(beta);

    // Project B: a session starts work that will ask to write a file.
    await openProjectFolder(page, beta);
    await newSessionTab(page);
    await send(page, 'write in beta');
    // Back to project A before it asks.
    await openProjectFolder(page, alpha);
    await expect(page.getByRole('tab')).toHaveCount(0);
    api.release('write in beta');

    // It asks while A is in view: the Inbox lists it under B's name, and the person is told.
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const entry = inbox.getByRole('option');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(`${betaName} · write in beta`);
    await expect(entry).toContainText('beta.txt');
    await expect
      .poll(notifications.shown)
      .toEqual([{ title: 'write in beta needs you', body: expect.stringContaining(`in ${betaName}`) }]);

    // Approved from the Inbox, without leaving A: B's session writes its file and finishes.
    await entry.click();
    await expect(page.locator('.project-name')).toHaveText(path.basename(alpha));
    await inbox.getByRole('button', { name: 'Allow once' }).click();
    await expect(inbox).toBeHidden();
    await expect.poll(() => existsSync(path.join(beta, 'beta.txt')), { timeout: 15_000 }).toBe(true);
    expect(readFileSync(path.join(beta, 'beta.txt'), 'utf8')).toBe('from beta\n');
    // Its ending (in a project out of view) is announced too: once per request, once per ending.
    await expect.poll(notifications.shown, { timeout: 15_000 }).toEqual([
      { title: 'write in beta needs you', body: expect.stringContaining(betaName) },
      { title: 'write in beta finished', body: `In ${betaName}.` },
    ]);

    // A click on the notification brings that project and session into view.
    await notifications.click(1);
    await expect(page.locator('.project-name')).toHaveText(betaName);
    await expect(page.getByRole('tab', { selected: true })).toHaveAccessibleName(/^write in beta/);
    await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Beta is written.');
    expect(await notifications.shown()).toHaveLength(2);
  } finally {
    rmSync(beta, { recursive: true, force: true });
  }
});
