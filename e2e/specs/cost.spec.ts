import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dataPaths, projectSlug } from '../../src-main/platform/paths';
import { docsScreenshot } from '../fixtures/screenshots';
import { startServe, tempProject, type ServeProcess } from '../fixtures/serve';

/**
 * The cost dashboard over a project seeded on disk: transcripts with `usage` lines (as the engine
 * writes them, each priced when it arrived) for three days, two sessions, a sub-agent and a model the
 * price table does not know. Every figure checked below is the sum of the seeded lines.
 */

const SONNET = 'claude-sonnet-4-5';
const HAIKU = 'claude-haiku-4-5';
const MYSTERY = 'mystery-model-1';

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** Noon, `back` local days ago; today, a minute ago (the server counts days in the same zone). */
function at(back: number): Date {
  const now = new Date();
  if (back === 0) return new Date(Math.max(now.getTime() - 60_000, new Date(now).setHours(0, 0, 30, 0)));
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - back, 12, 0, 0);
}

interface Usage {
  id: string;
  model: string;
  input: number;
  output: number;
  cacheWrite5m?: number;
  cacheRead?: number;
  costMicros: number | null;
  turn: number;
  when: Date;
}

function transcript(
  file: string,
  head: {
    sessionId: string;
    projectPath: string;
    title?: string;
    agent?: { agentId: string; name: string; agentType: string };
  },
  usages: Usage[],
): void {
  const first = usages[0] as Usage;
  const lines: unknown[] = [
    {
      type: 'session',
      version: 1,
      sessionId: head.agent ? head.agent.agentId : head.sessionId,
      projectPath: head.projectPath,
      createdAt: first.when.toISOString(),
      model: first.model,
      ...(head.agent ? { agent: { ...head.agent, parentId: null, toolUseId: null } } : {}),
    },
  ];
  if (head.title) lines.push({ type: 'title', title: head.title, at: first.when.toISOString() });
  let turn = 0;
  for (const u of usages) {
    const when = u.when.toISOString();
    while (turn < u.turn) {
      turn++;
      lines.push({ type: 'turn', phase: 'start', at: when });
      lines.push({
        type: 'item',
        item: {
          kind: 'message',
          id: `${head.sessionId}-u${turn}`,
          role: 'user',
          content: [{ type: 'text', text: `Question ${turn}` }],
          createdAt: when,
          status: 'complete',
          origin: 'user',
        },
      });
    }
    lines.push({
      type: 'item',
      item: {
        kind: 'message',
        id: `${u.id}-item`,
        role: 'assistant',
        content: [{ type: 'text', text: `Answer from ${u.model}.` }],
        createdAt: when,
        status: 'complete',
        model: u.model,
        apiId: u.id,
        usage: {
          inputTokens: u.input,
          outputTokens: u.output,
          cacheCreationInputTokens: u.cacheWrite5m ?? 0,
          cacheReadInputTokens: u.cacheRead ?? 0,
        },
      },
    });
    lines.push({
      type: 'usage',
      apiId: u.id,
      model: u.model,
      tokens: {
        input: u.input,
        output: u.output,
        cacheWrite5m: u.cacheWrite5m ?? 0,
        cacheWrite1h: 0,
        cacheRead: u.cacheRead ?? 0,
        webSearches: 0,
      },
      costMicros: u.costMicros,
      priceVersion: u.costMicros === null ? null : 'e2e-1',
      turn: u.turn,
      purpose: 'turn',
      at: when,
    });
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

const REFACTOR = 'aaaaaaaa-0000-4000-8000-000000000001';
const TESTS = 'bbbbbbbb-0000-4000-8000-000000000002';

/** Two sessions: "Refactor the parser" (two days, sonnet then haiku, a haiku sub-agent) and "Write tests" (today). */
function seed(home: string, project: string): void {
  const projectPath = realpathSync(project);
  const dir = dataPaths(home).projectDir(projectSlug(projectPath));
  transcript(
    path.join(dir, `${REFACTOR}.jsonl`),
    { sessionId: REFACTOR, projectPath, title: 'Refactor the parser' },
    [
      {
        id: 'msg_r1',
        model: SONNET,
        input: 1_000,
        output: 500,
        cacheWrite5m: 2_000,
        cacheRead: 10_000,
        costMicros: 12_340_000,
        turn: 1,
        when: at(2),
      },
      {
        id: 'msg_r2',
        model: HAIKU,
        input: 400,
        output: 100,
        cacheRead: 600,
        costMicros: 1_000_000,
        turn: 2,
        when: at(1),
      },
    ],
  );
  transcript(
    path.join(dir, REFACTOR, 'subagents', 'agent-explore1.jsonl'),
    {
      sessionId: REFACTOR,
      projectPath,
      agent: { agentId: 'agent-explore1', name: 'Explore the parser', agentType: 'Explore' },
    },
    [{ id: 'msg_s1', model: HAIKU, input: 300, output: 200, costMicros: 500_000, turn: 1, when: at(2) }],
  );
  transcript(path.join(dir, `${TESTS}.jsonl`), { sessionId: TESTS, projectPath, title: 'Write tests' }, [
    { id: 'msg_t1', model: SONNET, input: 200, output: 300, costMicros: 3_210_000, turn: 1, when: at(0) },
    { id: 'msg_t2', model: MYSTERY, input: 50, output: 70, costMicros: null, turn: 1, when: at(0) },
  ]);
  // "Write tests" is the open tab; "Refactor the parser" is only in the list until the dashboard opens it.
  writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify({ open: [TESTS], active: TESTS }));
}

let home: string;
let project: string;
let serve: ServeProcess;

test.beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  project = tempProject();
  seed(home, project);
  serve = await startServe({ home, project, env: { CLAUDE_CONFIG_DIR: path.join(home, 'no-claude-code') } });
});

test.afterEach(async () => {
  await serve.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

async function openDashboard(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(serve.url);
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();
  await page.keyboard.press('Control+Shift+U');
  const dashboard = page.getByRole('dialog', { name: 'Cost' });
  await expect(dashboard.getByRole('table', { name: 'Sessions' })).toBeVisible();
  return { dashboard, errors };
}

/** Pixels of the canvas painted in a model's colour (the first model's: #2f6feb). */
function paintedPixels(page: Page): Promise<number> {
  return page.getByTestId('cost-day-chart').evaluate((host) => {
    const canvas = host.querySelector('canvas');
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return -1;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4)
      if (
        Math.abs((data[i] ?? 0) - 0x2f) < 8 &&
        Math.abs((data[i + 1] ?? 0) - 0x6f) < 8 &&
        Math.abs((data[i + 2] ?? 0) - 0xeb) < 8
      )
        n++;
    return n;
  });
}

test('the dashboard draws spend per day and lists each session with its exact figures', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  const { dashboard, errors } = await openDashboard(page);

  // Total: 12.34 + 1 + 0.5 + 3.21 priced, one unpriced response.
  await expect(dashboard.getByTestId('cost-total')).toHaveText('$17.05 + unpriced');
  await expect(dashboard).toContainText('Estimated from list prices, table');
  await expect(dashboard).toContainText(`Not in the price table (tokens counted, cost unknown): ${MYSTERY}`);

  // The chart: uPlot was given each model's spend per day, and drew it.
  const chart = page.getByTestId('cost-day-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  const days = [6, 5, 4, 3, 2, 1, 0].map((b) => localDay(at(b)));
  const series = JSON.parse((await chart.getAttribute('data-series')) ?? '{}') as {
    days: string[];
    models: string[];
    values: number[][];
  };
  expect(series.days).toEqual(days);
  expect(series.models).toEqual([SONNET, HAIKU, MYSTERY]);
  expect(series.values).toEqual([
    [0, 0, 0, 0, 12.34, 0, 3.21],
    [0, 0, 0, 0, 0.5, 1, 0],
    [0, 0, 0, 0, 0, 0, 0],
  ]);
  expect(await paintedPixels(page)).toBeGreaterThan(500);
  const yLabels = async () => JSON.parse((await chart.getAttribute('data-y-labels')) ?? '[]') as string[];
  expect(await yLabels()).toEqual(['$0', '$5', '$10']);

  // Hover on the day two days back: its exact figures per model.
  const over = await chart.locator('.u-over').boundingBox();
  if (!over) throw new Error('no plot area');
  await page.mouse.move(over.x + ((4 + 0.5) / 7) * over.width, over.y + over.height - 5);
  const tip = page.getByTestId('cost-chart-tooltip');
  await expect(tip).toContainText(`${days[4]}: $12.84`);
  await expect(tip).toContainText('sonnet-4-5 $12.34');
  await expect(tip).toContainText('in 1,000 · out 500 · cache write 2,000 · cache read 10,000');
  await expect(tip).toContainText('haiku-4-5 $0.50');
  await page.mouse.move(0, 0);

  // The sessions, as seeded: the sub-agent's spend rolled into its session.
  const table = dashboard.getByRole('table', { name: 'Sessions' });
  const row = (title: string) => table.getByRole('row').filter({ hasText: title });
  await expect(row('Refactor the parser').getByRole('cell')).toHaveText([
    'Refactor the parser',
    'haiku-4-5, sonnet-4-5',
    '1,700',
    '800',
    '2,000',
    '10,600',
    // 10,600 / (1,700 + 2,000 + 10,600)
    '74%',
    '$13.84',
    '$0.50',
    '2',
    /h|min|s/,
  ]);
  await expect(row('Write tests').getByRole('cell').nth(7)).toHaveText('$3.21 + unpriced');
  const models = dashboard.getByRole('table', { name: 'Models' });
  await expect(models.getByRole('row').filter({ hasText: MYSTERY })).toContainText('unpriced');

  // Sorting by a header, from the keyboard.
  const input = table.getByRole('button', { name: /^Input/ });
  await input.focus();
  await page.keyboard.press('Enter');
  await expect(input.locator('xpath=..')).toHaveAttribute('aria-sort', 'descending');
  await expect(table.getByRole('row').nth(1)).toContainText('Refactor the parser');
  await page.keyboard.press('Enter');
  await expect(input.locator('xpath=..')).toHaveAttribute('aria-sort', 'ascending');
  await expect(table.getByRole('row').nth(1)).toContainText('Write tests');

  await page.screenshot({ path: docsScreenshot(testInfo, 'cost-dashboard.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await paintedPixels(page)).toBeGreaterThan(500);
  await page.screenshot({ path: docsScreenshot(testInfo, 'cost-dashboard-dark.png') });

  // Small window: everything still within reach (the body scrolls).
  await page.setViewportSize({ width: 900, height: 600 });
  await expect(dashboard.getByRole('button', { name: 'Close cost dashboard' })).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('cost-dashboard-900x600.png') });

  expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(dashboard).toBeHidden();
});

test('a table exports as a CSV download', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const { dashboard } = await openDashboard(page);
  const downloading = page.waitForEvent('download');
  await dashboard.getByRole('button', { name: 'Export sessions as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('Refactor the parser');
  expect(text).toContain('Write tests');
});

test('clicking a session opens it; its cost figure opens its own cost view', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const { dashboard } = await openDashboard(page);
  await dashboard
    .getByRole('table', { name: 'Sessions' })
    .getByRole('button', { name: 'Refactor the parser' })
    .click();
  await expect(dashboard).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Refactor the parser', selected: true })).toBeVisible();

  await page.getByTestId('session-cost').click();
  const view = page.getByRole('dialog', { name: 'Session cost' });
  await expect(view.getByTestId('session-cost-total')).toHaveText('$13.84');
  const members = view.getByRole('table', { name: 'By member' });
  await expect(
    members.getByRole('row').filter({ hasText: 'Main agent' }).getByRole('cell').last(),
  ).toHaveText('$13.34');
  await expect(
    members.getByRole('row').filter({ hasText: 'Explore the parser' }).getByRole('cell').last(),
  ).toHaveText('$0.50');
  await expect(view.getByRole('table', { name: 'By turn' }).getByRole('row')).toHaveCount(3);
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
});

/**
 * What at the dialog's width is out of reach: elements outside the viewport that are not inside a
 * table's own scroll container, and table wrappers that overflow without scrolling.
 */
function reach(page: Page, dialogName: string) {
  return page.evaluate((name) => {
    const dialog = document.querySelector(`[role="dialog"][aria-label="${name}"]`);
    if (!dialog) throw new Error(`no dialog ${name}`);
    const width = document.documentElement.clientWidth;
    const outside: string[] = [];
    for (const el of dialog.querySelectorAll('*')) {
      if (el.closest('.cost-table-wrap')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.right > width + 0.5)
        outside.push(
          `${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}–${Math.round(r.right)}`,
        );
    }
    const wrappers = [...dialog.querySelectorAll<HTMLElement>('.cost-table-wrap')].map((w) => ({
      table: w.querySelector('table')?.getAttribute('aria-label') ?? '',
      overflows: w.scrollWidth > w.clientWidth,
      overflowX: getComputedStyle(w).overflowX,
    }));
    const body = dialog.querySelector<HTMLElement>('.cost-body');
    return {
      outside,
      wrappers,
      bodyScrollsSideways: body ? body.scrollWidth > body.clientWidth : true,
      bodyScrollsDown: body
        ? body.scrollHeight > body.clientHeight && getComputedStyle(body).overflowY === 'auto'
        : false,
    };
  }, dialogName);
}

/**
 * Whether an element is wholly on screen: inside its table's scroll box and the window, to within a
 * pixel (a scrolled box stops at a whole pixel, a cell's edge may fall between two).
 */
function whollyShown(locator: ReturnType<Page['locator']>): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const box = el.closest('.cost-table-wrap')?.getBoundingClientRect();
    const inside = (o: { left: number; right: number; top: number; bottom: number }) =>
      r.left >= o.left - 1 && r.right <= o.right + 1 && r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
    const win = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
    return r.width > 0 && inside(win) && (!box || inside(box));
  });
}

/** How many lines an element's text takes (one client rect per line box of its text). */
function textLines(locator: ReturnType<Page['locator']>): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set(
      [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
    );
    return tops.size;
  });
}

test('at 900×600 nothing is out of reach: the page scrolls down, wide tables scroll sideways in their own box', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 900, height: 600 });
  const { dashboard } = await openDashboard(page);
  // The header is one row, even with the project's name in the title (it gives way with an ellipsis).
  const centre = async (locator: ReturnType<Page['locator']>) => {
    const box = await locator.boundingBox();
    if (!box) throw new Error('not on screen');
    return Math.round(box.y + box.height / 2);
  };
  const projectsGroup = dashboard.getByRole('group', { name: 'Projects' });
  const closeButton = dashboard.getByRole('button', { name: 'Close cost dashboard' });
  expect(await centre(closeButton)).toBe(await centre(projectsGroup));
  expect(await centre(dashboard.getByRole('heading', { level: 2 }))).toBe(await centre(projectsGroup));
  await dashboard.getByRole('button', { name: 'All projects', exact: true }).click();
  await expect(dashboard.getByRole('heading', { name: /all projects/ })).toBeVisible();

  // The header's controls: each on one line, the Close button on screen.
  const projects = dashboard.getByRole('group', { name: 'Projects' });
  for (const name of ['This project', 'All projects']) {
    expect(await textLines(projects.getByRole('button', { name, exact: true }))).toBe(1);
  }
  const oneButton = await projects.getByRole('button', { name: 'All projects' }).boundingBox();
  const group = await projects.boundingBox();
  expect(group?.height).toBe(oneButton?.height);
  await expect(dashboard.getByRole('button', { name: 'Close cost dashboard' })).toBeInViewport({ ratio: 1 });

  const seen = await reach(page, 'Cost');
  expect(seen.outside).toEqual([]);
  expect(seen.bodyScrollsSideways).toBe(false);
  expect(seen.bodyScrollsDown).toBe(true);
  // The two wide tables scroll inside their own wrapper.
  for (const name of ['Sessions', 'Models']) {
    expect(seen.wrappers).toContainEqual({ table: name, overflows: true, overflowX: 'auto' });
  }
  for (const w of seen.wrappers) expect(w.overflowX).toBe('auto');

  // No header breaks mid-word.
  const table = dashboard.getByRole('table', { name: 'Sessions' });
  for (const th of await dashboard.locator('.cost-table th').all()) expect(await textLines(th)).toBe(1);

  // The last column can be brought into view; the title column stays in place beside it.
  const duration = table.getByRole('columnheader', { name: /Duration/ });
  expect(await whollyShown(duration)).toBe(false);
  await duration.scrollIntoViewIfNeeded();
  expect(await whollyShown(duration)).toBe(true);
  const lastCell = table.getByRole('row').filter({ hasText: 'Refactor the parser' }).getByRole('cell').last();
  expect(await whollyShown(lastCell)).toBe(true);
  const wrap = await table.locator('xpath=..').boundingBox();
  const title = await table.getByRole('columnheader', { name: /Session/ }).boundingBox();
  const durationBox = await duration.boundingBox();
  if (!wrap || !title || !durationBox) throw new Error('no boxes');
  expect(Math.abs(title.x - wrap.x)).toBeLessThanOrEqual(1);
  expect(durationBox.x).toBeGreaterThanOrEqual(title.x + title.width - 1);
  // What is on top at the last column's centre is the last column itself, not the sticky one.
  const onTop = await duration.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  });
  expect(onTop).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('cost-900x600-scrolled.png') });
  await expect(dashboard.getByRole('table', { name: 'Most expensive turns' })).toBeVisible();
  await dashboard.getByRole('table', { name: 'Most expensive turns' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('cost-900x600-bottom.png') });

  // The session's own cost view, from its cost figure in the table.
  await table.getByRole('button', { name: '$13.84' }).click();
  const view = page.getByRole('dialog', { name: 'Session cost' });
  await expect(view.getByTestId('session-cost-total')).toHaveText('$13.84');
  await expect(view.getByRole('button', { name: 'Close session cost' })).toBeInViewport({ ratio: 1 });
  const inView = await reach(page, 'Session cost');
  expect(inView.outside).toEqual([]);
  expect(inView.bodyScrollsSideways).toBe(false);
  for (const w of inView.wrappers) expect(w.overflowX).toBe('auto');
  const byModel = view.getByRole('table', { name: 'By model' });
  const cost = byModel.getByRole('columnheader', { name: 'Cost' });
  await cost.scrollIntoViewIfNeeded();
  expect(await whollyShown(cost)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('session-cost-900x600.png') });
});

test('a range without spend draws its axis in whole cents, never "$0.0000"', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const { dashboard } = await openDashboard(page);
  await dashboard.getByRole('button', { name: 'Custom' }).click();
  await dashboard.getByLabel('From').fill(localDay(at(20)));
  await dashboard.getByLabel('To').fill(localDay(at(10)));
  await expect(dashboard.getByTestId('cost-total')).toHaveText('$0.00');
  const chart = page.getByTestId('cost-day-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  await expect
    .poll(async () => JSON.parse((await chart.getAttribute('data-y-labels')) ?? '[]') as string[])
    .toEqual(['$0', '$0.02', '$0.04']);
});

test('from the keyboard: Tab reaches the sort headers and the rows, Enter sorts and opens', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const { dashboard } = await openDashboard(page);
  const table = dashboard.getByRole('table', { name: 'Sessions' });
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      const where = el?.closest('thead') ? 'head' : el?.closest('tbody') ? 'row' : 'other';
      return {
        where,
        table: el?.closest('table')?.getAttribute('aria-label') ?? null,
        text: el?.textContent ?? '',
      };
    });
  /** Tab until the focus is on what `want` accepts; how many presses it took, or -1. */
  async function tabTo(want: (f: Awaited<ReturnType<typeof focused>>) => boolean): Promise<number> {
    for (let n = 1; n <= 60; n++) {
      await page.keyboard.press('Tab');
      if (want(await focused())) return n;
    }
    return -1;
  }

  // The dialog has the focus when it opens; Tab walks to the sessions table's "Input" header.
  expect(
    await tabTo((f) => f.table === 'Sessions' && f.where === 'head' && f.text.startsWith('Input')),
  ).toBeGreaterThan(0);
  await page.keyboard.press('Enter');
  await expect(table.getByRole('columnheader', { name: /^Input/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  // Every header after it is a stop of its own, then the first row's title.
  const headers = [
    'Output',
    'Cache write',
    'Cache read',
    'Cache hits',
    'Cost',
    'Sub-agents',
    'Turns',
    'Duration',
  ];
  for (const h of headers) {
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ where: 'head', table: 'Sessions', text: h });
  }
  await page.keyboard.press('Tab');
  expect(await focused()).toEqual({ where: 'row', table: 'Sessions', text: 'Refactor the parser' });
  await page.keyboard.press('Enter');
  await expect(dashboard).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Refactor the parser', selected: true })).toBeVisible();

  // A session that is open already: Enter goes to it, no second tab.
  await page.getByRole('tab', { name: 'Write tests' }).click();
  await page.keyboard.press('Control+Shift+U');
  await expect(table).toBeVisible();
  expect(await tabTo((f) => f.where === 'row' && f.text === 'Refactor the parser')).toBeGreaterThan(0);
  await page.keyboard.press('Enter');
  await expect(dashboard).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Refactor the parser', selected: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Refactor the parser' })).toHaveCount(1);
});
