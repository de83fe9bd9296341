import type { Page } from '@playwright/test';
import { expect, newSessionTab, test } from '../fixtures/test';

/**
 * Holds back every message from the server while `closed` (in order) and sends them on `open()`.
 * A switch checked while its answer is held shows that the window did not wait for the server,
 * however long the check takes on a loaded machine (a time-limited check against a delayed server
 * failed when the browser itself was slow).
 */
async function gateServer(page: Page): Promise<{ closed: boolean; held: () => number; open: () => void }> {
  const held: (() => void)[] = [];
  const gate = {
    closed: false,
    held: () => held.length,
    open: () => {
      gate.closed = false;
      for (const send of held.splice(0)) send();
    },
  };
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (gate.closed) held.push(() => ws.send(message));
      else ws.send(message);
    });
    ws.onMessage((message) => server.send(message));
  });
  return gate;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word-${i}`).join(' ');

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'long one' },
        // About 20 seconds of streaming: long enough to be stopped mid-reply.
        reply: { content: [{ type: 'text' as const, text: words(400) }], chunkChars: 8, delayMs: 40 },
      },
    ],
  },
});

test('typing right after a tab switch lands in the session on screen, however slow the server', async ({
  page,
  serve,
}) => {
  const gate = await gateServer(page);
  await page.goto(serve.url);
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();

  const box = page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' });
  const first = await newSessionTab(page);
  // A new session's message box has the cursor.
  await expect(box).toBeFocused();
  const second = await newSessionTab(page);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(box).toBeFocused();

  gate.closed = true;

  // Click a tab and type at once: every character goes to the clicked session.
  await first.click();
  await page.keyboard.type('hello first');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveValue('hello first');

  // Ctrl+2 and type at once, before the server has answered either switch.
  await page.keyboard.press('Control+2');
  await page.keyboard.type('hello second');
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveValue('hello second');
  // All of that while the server's answers were held back.
  expect(gate.closed).toBe(true);
  expect(gate.held()).toBeGreaterThan(0);

  // The server's late answers (to both switches) do not pull the view back: they are let through,
  // and the view is read after the page has had frames to apply them.
  gate.open();
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveValue('hello second');
  await expect(box).toBeFocused();

  // Drafts stay per session.
  await page.keyboard.press('Control+1');
  await expect(box).toHaveValue('hello first');
  await expect(box).toBeFocused();
  await expect(first).toHaveAttribute('aria-selected', 'true');

  // Ctrl+Shift+← inside the message box selects a word; the tabs stay where they are.
  const order = async () => page.getByRole('tab').evaluateAll((tabs) => tabs.map((t) => t.id));
  const before = await order();
  await page.keyboard.press('Control+Shift+ArrowLeft');
  await page.waitForTimeout(300);
  expect(await order()).toEqual(before);
  expect(
    await box.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd)),
  ).toBe('first');

  // Ctrl+Tab / Ctrl+Shift+Tab and Ctrl+PageDown / Ctrl+PageUp (for a browser, which keeps Ctrl+Tab)
  // cycle the tabs, wrapping at the ends, as at once as a click: typing straight after lands on screen.
  await page.keyboard.press('End');
  gate.closed = true;
  const cycle = [
    ['Control+Tab', second, 'hello second', ' tab'],
    ['Control+Tab', first, 'hello first', ' wrapped'],
    ['Control+PageUp', second, 'hello second tab', ' up'],
    ['Control+PageDown', first, 'hello first wrapped', ' down'],
    ['Control+Shift+Tab', second, 'hello second tab up', ' back'],
  ] as const;
  for (const [keys, tab, draft, typed] of cycle) {
    await page.keyboard.press(keys);
    await page.keyboard.type(typed);
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveValue(draft + typed);
    await expect(box).toBeFocused();
  }
  expect(gate.closed).toBe(true);
  gate.open();
});

test('Esc stops the visible session wherever the cursor is', async ({ app: page }) => {
  const tab = await newSessionTab(page);
  const box = page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' });
  await box.fill('long one');
  await box.press('Enter');
  await expect(tab).toHaveAttribute('data-badge', 'working');
  await expect(page.getByRole('tabpanel').getByRole('log')).toContainText('word-1');

  // The cursor is nowhere in particular (not the message box).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await expect(tab).not.toHaveAttribute('data-badge', 'working');
  await expect(page.getByRole('tabpanel').getByRole('log')).not.toContainText('word-399');
});
