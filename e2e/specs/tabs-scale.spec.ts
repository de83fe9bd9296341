import type { Locator, Page } from '@playwright/test';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

const bash = (id: string, command: string) => ({
  reply: {
    content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }],
    stop_reason: 'tool_use' as const,
  },
});

test.use({
  scenario: {
    steps: [
      ...[1, 2, 3, 4].map((n) => ({
        times: true as const,
        when: { lastUserText: `task ${n}` },
        ...bash(`t${n}`, `touch out-${n}.txt && echo wrote out-${n}.txt`),
      })),
      {
        times: true,
        when: { lastUserText: 'bump' },
        reply: { content: [{ type: 'text' as const, text: 'bumped' }] },
      },
      {
        times: true,
        when: { lastUserText: 'out-' },
        reply: { content: [{ type: 'text' as const, text: 'Done.' }] },
      },
    ],
  },
});

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box (not rendered)`);
  return box;
}

/** Whether `inner` lies wholly within `outer` (half a pixel of rounding allowed). */
function inside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

async function expectInside(inner: Locator, outer: Box, what: string) {
  const box = await boxOf(inner);
  expect(inside(box, outer), `${what}: ${JSON.stringify(box)} not inside ${JSON.stringify(outer)}`).toBe(
    true,
  );
}

async function expectTabVisible(page: Page, tab: Locator) {
  // The scroll into view may be smooth: let it settle before measuring. A smooth scroll's frames
  // come late on a loaded machine, so the default timeout rather than 3 s.
  await expect.poll(async () => inside(await boxOf(tab), await boxOf(page.getByRole('tablist')))).toBe(true);
}

test('12 tabs: the strip scrolls, the active tab is always in view, and All tabs lists every one', async ({
  app: page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  for (let i = 0; i < 12; i++) await newSessionTab(page);
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(12);

  // A long name is cut short on the tab; the tooltip has all of it.
  const long = 'Investigate the flaky integration test in the payments service and write up the cause';
  await tabs.nth(11).dblclick();
  await page.getByRole('textbox', { name: 'Session name' }).fill(long);
  await page.getByRole('textbox', { name: 'Session name' }).press('Enter');
  await expect(tabs.nth(11)).toHaveAttribute('title', long);
  const title = tabs.nth(11).locator('.tab-title');
  expect(await title.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  // Twelve tabs do not fit: the strip overflows and offers its arrows. The newest tab is in view.
  await expect(page.getByRole('button', { name: 'Scroll tabs left' })).toBeEnabled();
  await expect(tabs.nth(11)).toHaveAttribute('aria-selected', 'true');
  await expectTabVisible(page, tabs.nth(11));
  expect(inside(await boxOf(tabs.nth(0)), await boxOf(page.getByRole('tablist')))).toBe(false);

  // Switching to a tab out of view scrolls it in, by keyboard, by the menu, and wrapping round.
  await page.keyboard.press('Control+1');
  await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expectTabVisible(page, tabs.nth(0));
  await page.keyboard.press('Control+PageUp');
  await expect(tabs.nth(11)).toHaveAttribute('aria-selected', 'true');
  await expectTabVisible(page, tabs.nth(11));

  // The arrows page the strip.
  const scrolled = () => page.getByRole('tablist').evaluate((el) => el.scrollLeft);
  const atEnd = await scrolled();
  await page.getByRole('button', { name: 'Scroll tabs left' }).click();
  await expect.poll(scrolled).toBeLessThan(atEnd);
  await page.getByRole('button', { name: 'Scroll tabs right' }).click();
  await expect.poll(scrolled).toBeGreaterThanOrEqual(atEnd - 1);

  // The wheel scrolls the strip sideways.
  const strip = page.getByRole('tablist');
  const before = await strip.evaluate((el) => el.scrollLeft);
  await strip.hover();
  await page.mouse.wheel(0, -400);
  await expect.poll(() => strip.evaluate((el) => el.scrollLeft)).toBeLessThan(before);

  // All tabs: every one of the twelve, with its state, keyboard-driven, and Esc closes it.
  const menuButton = page.getByRole('button', { name: 'All tabs' });
  await menuButton.click();
  const menu = page.getByRole('menu', { name: 'All tabs' });
  await expect(menu.getByRole('menuitem')).toHaveCount(12);
  await expect(menu.getByRole('menuitem').nth(11)).toHaveAccessibleName(long);
  // The active session's entry has the cursor; arrows move through the entries and their pins.
  await expect(menu.getByRole('menuitem').nth(11)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();

  await menuButton.press('Enter');
  await expect(menu.getByRole('menuitem').nth(11)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitem').nth(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem').nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expectTabVisible(page, tabs.nth(1));
  // A click on an entry switches too, and the switched-to session's box has the cursor.
  await menuButton.click();
  await menu.getByRole('menuitem').nth(6).click();
  await expect(tabs.nth(6)).toHaveAttribute('aria-selected', 'true');
  await expectTabVisible(page, tabs.nth(6));
  await expect(page.getByRole('tabpanel').getByRole('textbox', { name: 'Message' })).toBeFocused();

  // A new tab opens in view, at the far end.
  const thirteenth = await newSessionTab(page);
  await expect(thirteenth).toHaveAttribute('aria-selected', 'true');
  await expectTabVisible(page, thirteenth);
});

test('side by side at 900×600: four picked sessions waiting for approval, every message box and answer in view', async ({
  app: page,
}) => {
  await page.setViewportSize({ width: 900, height: 600 });
  // Five sessions; the first four each run a Bash command that needs approval.
  const tabs: Locator[] = [];
  for (let i = 0; i < 5; i++) tabs.push(await newSessionTab(page));
  for (let n = 1; n <= 4; n++) {
    await tabs[n - 1]?.click();
    await send(page, `task ${n}`);
    await expect(
      page.getByRole('tabpanel').getByRole('dialog', { name: 'Permission request' }),
    ).toBeVisible();
  }
  await tabs[0]?.click();

  // The sidebar folds away (Ctrl+B) and stays folded after a reload.
  await page.keyboard.press('Control+b');
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeHidden();

  // Pick the four waiting sessions in All tabs.
  await page.getByRole('button', { name: 'All tabs' }).click();
  const menu = page.getByRole('menu', { name: 'All tabs' });
  // Each entry says its session's state: the four wait for an answer, the fifth is idle.
  for (let i = 0; i < 4; i++)
    await expect(menu.getByRole('menuitem').nth(i)).toHaveAccessibleName(/waiting for you$/);
  await expect(menu.getByRole('menuitem').nth(4)).not.toHaveAccessibleName(/waiting/);
  for (let i = 0; i < 4; i++) await menu.getByRole('menuitemcheckbox').nth(i).click();
  await expect(menu.getByRole('menuitemcheckbox', { checked: true })).toHaveCount(4);
  await page.keyboard.press('Escape');
  await page.getByRole('tab').first().click();

  await page.getByRole('button', { name: 'Side by side' }).click();
  const tiles = page.getByRole('tabpanel');
  await expect(tiles).toHaveCount(4);
  const viewport = { x: 0, y: 0, width: 900, height: 600 };
  for (let i = 0; i < 4; i++) {
    const tile = tiles.nth(i);
    const tileBox = await boxOf(tile);
    const prompt = tile.getByRole('dialog', { name: 'Permission request' });
    await expect(prompt).toContainText(`out-${i + 1}.txt`);
    for (const [what, el] of [
      ['message box', tile.getByRole('textbox', { name: 'Message' })],
      ['Allow once', prompt.getByRole('button', { name: 'Allow once' })],
      ['Deny', prompt.getByRole('button', { name: 'Deny' })],
    ] as const) {
      await expect(el).toBeVisible();
      await expectInside(el, viewport, `tile ${i + 1} ${what} in the window`);
      await expectInside(el, tileBox, `tile ${i + 1} ${what} in its tile`);
    }
    // The tile's own bar (its title, Terminal, Permission log…) fits on it too.
    for (const button of await tile.locator('.panel-bar button').all())
      await expectInside(
        button,
        tileBox,
        `tile ${i + 1} bar button ${await button.getAttribute('aria-label')}`,
      );
    // No tile is squeezed below a readable size.
    expect(tileBox.width).toBeGreaterThanOrEqual(360);
    expect(tileBox.height).toBeGreaterThanOrEqual(240);
  }

  await page.screenshot({ path: docsScreenshot(test.info(), 'side-by-side-900x600.png') });

  // Each tile answers for its own session.
  await tiles.nth(2).getByRole('button', { name: 'Allow once' }).click();
  await expect(tiles.nth(2).getByRole('log')).toContainText('Done.');
  await expect(tiles.nth(2).getByRole('dialog', { name: 'Permission request' })).toBeHidden();
  await expect(tiles.nth(1).getByRole('dialog', { name: 'Permission request' })).toBeVisible();

  // The folded sidebar counts what still waits; a click on the count brings it (and the Inbox) back.
  await page.getByRole('button', { name: '3 waiting for you: show the Inbox' }).click();
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide sidebar' })).toBeVisible();
});

test('the sidebar holds its order while the pointer is over it', async ({ app: page }) => {
  const older = await newSessionTab(page);
  await newSessionTab(page);
  const entries = page.getByRole('navigation', { name: 'Sessions' }).locator('li');
  // Newest activity first: the older session, now the active one, is last.
  await older.click();
  await expect(entries).toHaveCount(2);
  await expect(entries.last().getByRole('button')).toHaveAttribute('aria-current', 'true');

  // With the pointer over the list, the older session gets a reply (new activity): it stays put.
  await entries.first().hover();
  await page.keyboard.type('bump');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tabpanel').getByRole('log')).toContainText('bumped');
  await page.waitForTimeout(500);
  await expect(entries.last().getByRole('button')).toHaveAttribute('aria-current', 'true');

  // Once the pointer leaves, the list catches up: the session with the newest activity comes first.
  await page.mouse.move(700, 400);
  await expect(entries.first().getByRole('button')).toHaveAttribute('aria-current', 'true');
});
