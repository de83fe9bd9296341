import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startScriptedApi } from '../../src-main/devtools/scripted-api/server';
import { seedSessions } from '../fixtures/seed-sessions';
import { startServe, tempProject } from '../fixtures/serve';

/** Rows a transcript may hold in the page at once: a screenful and the overscan either side. */
const MAX_ROWS = 60;

test('a 5,000-message session opens at its last message, scrolls to the top and back, drawing only what shows', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  const project = tempProject();
  const [session] = seedSessions(home, project, 1, 5000);
  const serve = await startServe({ home, project });
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(serve.url);
    const log = page.getByRole('log', { name: 'Transcript' });
    const rows = log.locator('.transcript-row');
    // Opens at the bottom: the last reply shows.
    await expect(log.getByText(session?.lastText.split('\n').at(-1) ?? '', { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);

    // To the top with the keyboard (Home), as a reader would: the first question shows.
    await log.focus();
    await page.keyboard.press('Home');
    await expect(log.getByText('Question 0: what about part 0?', { exact: true })).toBeVisible();
    expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
    // Scrolled up, the transcript offers the way back.
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await expect(jump).toBeVisible();

    // And back down: the last message again, with the offer gone.
    await jump.click();
    await expect(log.getByText('End of message 4999.', { exact: true })).toBeVisible();
    await expect(jump).toBeHidden();
    expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);

    // A long way down by scrolling with the wheel, through the middle: rows stay bounded.
    await log.focus();
    await page.keyboard.press('Home');
    await expect(log.getByText('Question 0: what about part 0?', { exact: true })).toBeVisible();
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 4000);
    expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
    await page.keyboard.press('End');
    await expect(log.getByText('End of message 4999.', { exact: true })).toBeVisible();
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});

test('a long session let go while out of view is fetched again when its tab is shown', async ({ page }) => {
  test.setTimeout(180_000);
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  const project = tempProject();
  // Seven of 5,000 messages: six out of view are more than the window keeps (25,000 items).
  const seeded = seedSessions(home, project, 7, 5000);
  const serve = await startServe({ home, project });
  try {
    const fetched: string[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString();
        const m = /"sessions\.get".*?"sessionId":"([^"]+)"/.exec(text);
        if (m?.[1]) fetched.push(m[1]);
      }),
    );
    await page.goto(serve.url);
    const tabs = page.getByRole('tablist').getByRole('tab');
    await expect(tabs).toHaveCount(7);
    // Every session ends with the same row: look for it in the panel of the session just shown, so
    // the check waits for that session's transcript and not the one shown before it.
    const lastRowOf = (i: number) =>
      page.locator(`#panel-${seeded[i]?.id ?? ''}`).getByText('End of message 4999.', { exact: true });
    for (let i = 0; i < 7; i++) {
      await tabs.nth(i).click();
      await expect(lastRowOf(i)).toBeVisible({ timeout: 30_000 });
    }
    // The first was the least recently shown: its transcript was let go, and showing it fetches it.
    const first = seeded[0]?.id ?? '';
    const before = fetched.filter((id) => id === first).length;
    await tabs.nth(0).click();
    await expect(lastRowOf(0)).toBeVisible({ timeout: 30_000 });
    // Seen through the browser's websocket events, which reach the test on their own schedule.
    await expect.poll(() => fetched.filter((id) => id === first).length).toBeGreaterThan(before);
    // The last shown (still kept) comes back without a fetch.
    const last = seeded[6]?.id ?? '';
    const lastBefore = fetched.filter((id) => id === last).length;
    await tabs.nth(6).click();
    await expect(lastRowOf(6)).toBeVisible();
    expect(fetched.filter((id) => id === last).length).toBe(lastBefore);
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});

test('a streaming reply is followed at the bottom, unless the person scrolled up', async ({ page }) => {
  test.setTimeout(120_000);
  const words = Array.from({ length: 600 }, (_, i) => `word-${i}`).join(' ');
  const api = await startScriptedApi({
    scenario: {
      steps: [
        {
          reply: { content: [{ type: 'text', text: `${words} END-OF-STREAM` }], chunkChars: 12, delayMs: 25 },
        },
      ],
    },
  });
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  const project = tempProject();
  seedSessions(home, project, 1, 300);
  const serve = await startServe({
    home,
    project,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'test-key' },
  });
  try {
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(serve.url);
    const log = page.getByRole('log', { name: 'Transcript' });
    await expect(log.getByText('End of message 299.', { exact: true })).toBeVisible({ timeout: 30_000 });
    const gap = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('go on');
    await box.press('Enter');
    const streaming = log.locator('article[data-status="streaming"]');
    await expect(streaming).toBeVisible();
    // Following: as the reply grows, the view stays at its end.
    await expect(streaming).toContainText('word-150', { timeout: 20_000 });
    // The row's new height is measured after it is drawn, so the view catches up a frame or two
    // after the text: read the gap until then, not at the very moment the text appears. A frame can
    // take far longer than usual on a loaded machine (CI saw over a second), so the default timeout.
    await expect.poll(gap).toBeLessThan(40);

    // Scrolled up by the person: new text no longer moves the view, and the way back is offered.
    await log.hover();
    await page.mouse.wheel(0, -1500);
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await expect(jump).toBeVisible();
    const top = await log.evaluate((el) => el.scrollTop);
    // The reply row is out of view (so out of the page); the reply goes on streaming meanwhile.
    await page.waitForTimeout(1500);
    expect(Math.abs((await log.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(5);

    // Back to the latest: following again until the reply ends.
    await jump.click();
    await expect(jump).toBeHidden();
    await expect(log.locator('article.status-complete').last()).toContainText('END-OF-STREAM', {
      timeout: 30_000,
    });
    await expect.poll(gap).toBeLessThan(40);
  } finally {
    await serve.stop();
    await api.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});

test('no chunk of the built window is over 500 kB, and the check catches one that is', () => {
  const check = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [path.resolve(import.meta.dirname, '../../scripts/check-chunk-sizes.mjs'), ...args],
      {
        encoding: 'utf8',
      },
    );
  const built = check();
  expect(built.status, built.stdout + built.stderr).toBe(0);
  // The same check fails on a chunk over its limit.
  const dir = mkdtempSync(path.join(tmpdir(), 'carapace-chunks-'));
  try {
    writeFileSync(path.join(dir, 'big.js'), 'x'.repeat(2000));
    writeFileSync(path.join(dir, 'small.js'), 'x'.repeat(10));
    const over = check(dir, '1000');
    expect(over.status).toBe(1);
    expect(over.stdout).toMatch(/TOO BIG .* big\.js/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
