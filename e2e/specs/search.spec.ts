import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dataPaths, projectSlug } from '../../src-main/platform/paths';
import { docsScreenshot } from '../fixtures/screenshots';
import { seedSessions, seedSubagentRun } from '../fixtures/seed-sessions';
import { startServe, tempProject } from '../fixtures/serve';

const PHRASE = 'saffron drawbridge migration';
/** The message holding the phrase: far above the end of a 300-message session, so not drawn at first. */
const TARGET_INDEX = 41;

/**
 * Writes the phrase into one message of a seeded session (its transcript rewritten line by line, as
 * Carapace would have written it) and opens only the first session in a tab.
 */
function plantPhrase(home: string, project: string, sessionId: string, firstId: string): string {
  const dir = dataPaths(home).projectDir(projectSlug(realpathSync(project)));
  const file = path.join(dir, `${sessionId}.jsonl`);
  let itemId = '';
  let seen = 0;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const o = JSON.parse(l) as { type: string; item?: { id: string; role: string; content: unknown[] } };
      if (o.type === 'item' && o.item?.role === 'assistant' && seen++ === TARGET_INDEX) {
        itemId = o.item.id;
        o.item.content = [{ type: 'text', text: `We schedule the ${PHRASE} for after the freeze.` }];
      }
      return JSON.stringify(o);
    });
  writeFileSync(file, `${lines.join('\n')}\n`);
  writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify({ open: [firstId], active: firstId }));
  return itemId;
}

/** Opens the app at `url` (1400×900) and waits until its transcript shows the last line of `lastText`. */
async function openShowing(page: Page, url: string, lastText: string) {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(url);
  const log = page.getByRole('log', { name: 'Transcript' });
  await expect(log.getByText(lastText.split('\n').at(-1) ?? '', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  return log;
}

async function inViewport(page: Page, selector: ReturnType<Page['locator']>): Promise<void> {
  const box = await selector.boundingBox();
  const viewport = page.viewportSize();
  expect(box).not.toBeNull();
  expect(viewport).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + Math.min(box.height, 40)).toBeLessThanOrEqual(viewport.height);
}

test('Ctrl+K finds a phrase across sessions, Enter opens its session scrolled to the message', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  const project = tempProject();
  const seeded = seedSessions(home, project, 3, 300);
  const [first, , target] = seeded;
  if (!first || !target) throw new Error('seeding failed');
  plantPhrase(home, project, target.id, first.id);
  const serve = await startServe({ home, project });
  try {
    const log = await openShowing(page, serve.url, first.lastText);
    await expect(page.getByRole('tab')).toHaveCount(1);

    // Ctrl+K opens the palette with the cursor in its box; Esc closes it and gives the cursor back.
    const composer = page.getByRole('textbox', { name: /message/i }).first();
    await composer.focus();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox');
    await expect(input).toBeFocused();
    // Without text it lists the project's sessions and the commands.
    await expect(palette.getByRole('option', { name: /Long session 3/ })).toBeVisible();
    await expect(palette.getByRole('option', { name: /Cost dashboard/ })).toBeVisible();
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-palette-empty.png') });
    // Tab stays inside the palette.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await palette.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
    await expect(composer).toBeFocused();

    // Type the phrase: the one message holding it is listed with its context, the words marked.
    await page.keyboard.press('Control+k');
    await expect(input).toBeFocused();
    await page.keyboard.type(PHRASE);
    const hit = palette.getByRole('option').filter({ hasText: 'saffron' }).first();
    await expect(hit).toBeVisible();
    await expect(hit).toContainText('Long session 3');
    await expect(hit.locator('mark').first()).toHaveText(PHRASE, { ignoreCase: true });
    await expect(palette.getByRole('status')).toHaveText('1 message found');
    await expect(hit).toHaveAttribute('aria-selected', 'true');
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-palette.png') });

    // Enter: the session opens and its transcript is scrolled to that message, marked.
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    await expect(page.getByRole('tab', { selected: true })).toContainText('Long session 3');
    const message = log.getByText(`We schedule the ${PHRASE} for after the freeze.`);
    await expect(message).toBeVisible();
    await inViewport(page, message);
    await expect(log.locator('.transcript-row.search-hit')).toContainText(PHRASE);
    // As with any switch, the cursor lands in the opened session's message box.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-jump.png') });
    // The mark goes after a moment; the view stays where it is.
    await expect(log.locator('.transcript-row.search-hit')).toHaveCount(0, { timeout: 10_000 });
    await inViewport(page, message);

    // 900×600: the palette with its filters open stays whole.
    await page.setViewportSize({ width: 900, height: 600 });
    await page.keyboard.press('Control+k');
    await page.keyboard.type('#reply errors');
    await palette.getByRole('button', { name: /Filters/ }).click();
    await palette.getByLabel('Where').selectOption('all');
    await expect(palette.getByLabel('Errors only')).toBeVisible();
    await palette.getByRole('combobox', { name: /Search sessions/ }).fill('#quick brown fox');
    await expect(palette.getByRole('status')).toHaveText(/\d+ messages found/);
    const box = await palette.boundingBox();
    expect(box && box.x >= 0 && box.y >= 0 && box.x + box.width <= 900 && box.y + box.height <= 600).toBe(
      true,
    );
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-palette-900x600.png') });
    // Errors only: the seeded sessions have no failures.
    await palette.getByLabel('Errors only').check();
    await expect(palette.getByRole('status')).toHaveText('0 messages found');
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});

test('a message found in another project opens that project and scrolls to it', async ({ page }) => {
  test.setTimeout(120_000);
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  const here = tempProject('here');
  const elsewhere = tempProject('elsewhere');
  const [own] = seedSessions(home, here, 1, 20);
  const [other, target] = seedSessions(home, elsewhere, 2, 300);
  if (!own || !other || !target) throw new Error('seeding failed');
  plantPhrase(home, elsewhere, target.id, other.id);
  const serve = await startServe({ home, project: here });
  try {
    const log = await openShowing(page, serve.url, own.lastText);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await page.keyboard.type(PHRASE);
    // Not in this project.
    await expect(palette.getByRole('status')).toHaveText('0 messages found');
    await palette.getByRole('button', { name: /Filters/ }).click();
    await palette.getByLabel('Where').selectOption('all');
    const hit = palette.getByRole('option').filter({ hasText: 'saffron' });
    await expect(hit).toHaveCount(1);
    await expect(hit).toContainText(path.basename(realpathSync(elsewhere)));
    await palette.getByRole('combobox', { name: /Search sessions/ }).focus();
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    await expect(page.getByRole('tab', { selected: true })).toContainText('Long session 2');
    const message = log.getByText(`We schedule the ${PHRASE} for after the freeze.`);
    await expect(message).toBeVisible({ timeout: 30_000 });
    await inViewport(page, message);
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(here, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('a message a sub-agent or teammate wrote is found under its session and opens where it shows', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  const project = tempProject();
  const [first, target] = seedSessions(home, project, 2, 40);
  if (!first || !target) throw new Error('seeding failed');
  const phrase = 'tamarind causeway audit';
  const { agentId } = seedSubagentRun(home, project, target.id, {
    description: 'explore',
    agentType: 'Explore',
    text: `The ${phrase} found three callers of the old parser.`,
  });
  // One it started in turn: its call is in the first one's transcript.
  const nested = seedSubagentRun(home, project, target.id, {
    description: 'dig deeper',
    agentType: 'general-purpose',
    text: 'The quince lantern turned out to be a cache key.',
    parentAgentId: agentId,
  });
  // A teammate of that session (started by its team, not by a call).
  const dir = dataPaths(home).projectDir(projectSlug(realpathSync(project)));
  writeFileSync(
    path.join(dir, target.id, 'subagents', 'agent-mate1.jsonl'),
    [
      {
        type: 'session',
        version: 1,
        sessionId: target.id,
        projectPath: realpathSync(project),
        createdAt: '2026-01-03T00:00:00.000Z',
        model: 'claude-sonnet-4-5',
        agent: {
          agentId: 'agent-mate1',
          parentId: target.id,
          agentType: 'reviewer',
          name: 'reviewer',
          toolUseId: null,
        },
      },
      {
        type: 'item',
        item: {
          kind: 'message',
          id: 'mate-reply',
          role: 'assistant',
          content: [{ type: 'text', text: 'The medlar ledger is balanced.' }],
          createdAt: '2026-01-03T00:00:01.000Z',
          status: 'complete',
        },
      },
    ]
      .map((l) => `${JSON.stringify(l)}\n`)
      .join(''),
  );
  // Only the first session in a tab: the result must open the other one.
  writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify({ open: [first.id], active: first.id }));
  const serve = await startServe({ home, project });
  try {
    const log = await openShowing(page, serve.url, first.lastText);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await page.keyboard.type(phrase);
    const hit = palette.getByRole('option').filter({ hasText: 'tamarind' });
    await expect(hit).toHaveCount(1);
    // Its session's title, and who wrote it.
    await expect(hit).toContainText('Long session 2');
    await expect(hit.locator('.palette-agent')).toHaveText('in sub-agent explore');
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-subagent-hit.png') });
    await page.setViewportSize({ width: 900, height: 600 });
    await expect(hit.locator('.palette-agent')).toBeVisible();
    // The session and the agent's name are whole; the date and model give way.
    expect(
      await hit
        .locator('.palette-hit-head .palette-title')
        .evaluate((el) => el.scrollWidth <= el.clientWidth),
    ).toBe(true);
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-subagent-hit-900x600.png') });
    await page.setViewportSize({ width: 1400, height: 900 });

    await palette.getByRole('combobox', { name: /Search sessions/ }).focus();
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    await expect(page.getByRole('tab', { selected: true })).toContainText('Long session 2');
    // The Agent call's card, opened on the sub-agent's transcript with the message in it.
    const card = log.locator(`details.agent-card[data-agent-id="${agentId}"]`);
    await expect(card).toHaveAttribute('open', '', { timeout: 30_000 });
    const own = card.getByRole('log', { name: 'Transcript of explore' }).first();
    await expect(own.getByText(`The ${phrase} found three callers of the old parser.`)).toBeVisible();
    await inViewport(page, card);
    await page.screenshot({ path: docsScreenshot(test.info(), 'search-subagent-open.png') });

    // The nested one: both cards are opened on the way down to its transcript.
    await page.getByRole('tab', { selected: true }).click();
    await card.locator('summary').first().click();
    await expect(card).not.toHaveAttribute('open');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('quince lantern');
    const deep = palette.getByRole('option').filter({ hasText: 'quince' });
    await expect(deep.locator('.palette-agent')).toHaveText('in sub-agent dig deeper');
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    const inner = card.locator(`details.agent-card[data-agent-id="${nested.agentId}"]`);
    await expect(inner).toHaveAttribute('open', '', { timeout: 30_000 });
    await expect(
      inner.getByRole('log', { name: 'Transcript of dig deeper' }).getByText('The quince lantern turned out'),
    ).toBeVisible();

    // A teammate's: the session's team view, where its member card is.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('medlar ledger');
    const mate = palette.getByRole('option').filter({ hasText: 'medlar' });
    await expect(mate.locator('.palette-agent')).toHaveText('in teammate reviewer');
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    const team = page.getByLabel('Team view');
    await expect(team).toBeVisible({ timeout: 30_000 });
    await expect(team.getByRole('tree', { name: 'Members' })).toContainText('reviewer');
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});
