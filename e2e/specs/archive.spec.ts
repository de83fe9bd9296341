import { readdirSync } from 'node:fs';
import path from 'node:path';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, test, type CarapaceFixtures } from '../fixtures/test';

type Page = CarapaceFixtures['app'];

const sessionList = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });

/** Opens the header's Archive dialog on one of its views. */
async function openPutAway(page: Page, view: 'Archived' | 'Trash') {
  await page.getByRole('button', { name: 'Archived and deleted sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Archived and deleted sessions' });
  await dialog.getByRole('button', { name: view, exact: true }).click();
  return dialog;
}

/** Renames the active session, so each one has a name of its own to find it by. */
async function name(page: Page, title: string) {
  const tab = page.getByRole('tab', { selected: true });
  await tab.dblclick();
  const box = page.getByRole('textbox', { name: 'Session name' });
  await box.fill(title);
  await box.press('Enter');
  await expect(page.getByRole('tab', { name: title })).toBeVisible();
}

test('archive hides a session from the tabs and the list, and Restore brings it back', async ({ app }) => {
  await newSessionTab(app);
  await name(app, 'Alpha');
  await newSessionTab(app);
  await name(app, 'Beta');

  await app.getByRole('tab', { name: 'Alpha' }).click();
  await app.getByRole('button', { name: 'Archive Alpha' }).click();
  await expect(app.getByRole('tab', { name: 'Alpha' })).toHaveCount(0);
  await expect(sessionList(app)).not.toContainText('Alpha');
  await expect(sessionList(app)).toContainText('Beta');

  const dialog = await openPutAway(app, 'Archived');
  const archived = dialog.getByRole('list', { name: 'Archived sessions' });
  await expect(archived).toContainText('Alpha');
  await dialog.getByRole('button', { name: 'Restore Alpha' }).click();
  await expect(archived.getByRole('listitem')).toHaveCount(0);
  await expect(dialog).toContainText('No archived sessions.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect(sessionList(app)).toContainText('Alpha');
  // It reopens with what it had.
  await sessionList(app).getByRole('button', { name: /Alpha/ }).click();
  await expect(app.getByRole('tab', { name: 'Alpha', selected: true })).toBeVisible();
});

test('delete moves a session to the trash; Restore brings it back; Delete forever asks first', async ({
  app,
  serve,
}) => {
  await newSessionTab(app);
  await name(app, 'Gamma');
  await app.getByRole('button', { name: 'Delete Gamma' }).click();
  await app
    .getByRole('group', { name: 'Confirm deleting Gamma' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(app.getByRole('tab', { name: 'Gamma' })).toHaveCount(0);
  await expect(sessionList(app)).not.toContainText('Gamma');

  let dialog = await openPutAway(app, 'Trash');
  const trash = dialog.getByRole('list', { name: 'Trash' });
  await expect(trash).toContainText('Gamma');
  await dialog.getByRole('button', { name: 'Restore Gamma' }).click();
  await expect(dialog).toContainText('The trash is empty.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(sessionList(app)).toContainText('Gamma');

  // Again, this time for good: the files leave the trash folder, after a second click.
  await sessionList(app).getByRole('button', { name: /Gamma/ }).click();
  await app.getByRole('button', { name: 'Delete Gamma' }).click();
  await app
    .getByRole('group', { name: 'Confirm deleting Gamma' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(sessionList(app)).not.toContainText('Gamma');
  dialog = await openPutAway(app, 'Trash');
  await dialog.getByRole('button', { name: 'Delete Gamma forever' }).click();
  const confirm = dialog.getByRole('group', { name: 'Confirm deleting Gamma forever' });
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Delete forever' }).click();
  await expect(dialog).toContainText('The trash is empty.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await app.reload();
  await expect(app.getByRole('button', { name: 'New session', exact: true })).toBeVisible();
  await expect(sessionList(app)).not.toContainText('Gamma');
  // Nothing of it is left in the trash folder either (only the trash's own index may remain).
  const left = readdirSync(path.join(serve.home, 'trash'), { recursive: true, encoding: 'utf8' });
  expect(left.filter((f) => !f.endsWith('sessions-index.json') && f.includes('.'))).toEqual([]);
});

test('the favicon and the header mark load from assets/ under the strict CSP, with no violation', async ({
  app: first,
  serve,
}) => {
  // A page of its own, listened to from its first request: a reload of the fixture's page would count the
  // old document's requests that the navigation aborts (seen in CI as the mark "failing" twice).
  await first.close();
  const app = await first.context().newPage();
  await app.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
  });
  const consoleCsp: string[] = [];
  app.on('console', (m) => {
    if (/content security policy/i.test(m.text())) consoleCsp.push(m.text());
  });
  const failed: string[] = [];
  app.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
  await app.goto(serve.url);
  await expect(app.getByRole('button', { name: 'New session', exact: true })).toBeVisible();

  const href = await app.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toMatch(/^\.?\/?assets\/carapace-[\w-]+\.svg$/);
  // Served without the token, as a browser asks for a favicon, with the same strict policy.
  const icon = await app.request.get(`${serve.origin}${new URL(href ?? '', serve.url).pathname}`);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/svg+xml');
  expect(icon.headers()['content-security-policy']).toContain("default-src 'none'");
  expect(await icon.text()).toContain('<svg');

  // The header's mark is the same file, drawn.
  const mark = app.locator('header .brand img');
  await expect(mark).toHaveJSProperty('complete', true);
  expect(await mark.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(await app.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
  expect(consoleCsp).toEqual([]);
  expect(failed).toEqual([]);
});

test('Settings at 900×600: paths as they are, controls aligned', async ({ app }) => {
  await app.setViewportSize({ width: 900, height: 600 });
  await newSessionTab(app);
  // The panel bar's buttons at this size (looked at, not asserted).
  await app.screenshot({ path: test.info().outputPath('workspace-900x600.png') });
  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toContainText('Permission rules');

  // Paths are never re-cased by CSS.
  const transforms = await dialog
    .locator('.rules h4, .rules h4 *, code')
    .evaluateAll((els) => els.map((el) => getComputedStyle(el).textTransform));
  expect(transforms.length).toBeGreaterThan(0);
  expect(new Set(transforms)).toEqual(new Set(['none']));

  // Every control of a grid starts at the same x.
  const lefts = async (section: string) =>
    dialog
      .getByRole('region', { name: section })
      .locator('.settings-control')
      .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().left)));
  for (const section of ['API access', 'Defaults']) {
    const xs = await lefts(section);
    expect(xs.length).toBeGreaterThan(1);
    expect(new Set(xs).size, `${section}: ${xs.join(', ')}`).toBe(1);
  }
  const apiX = (await lefts('API access'))[0];
  expect((await lefts('Defaults'))[0]).toBe(apiX);
  await app.screenshot({ path: docsScreenshot(test.info(), 'settings-900x600.png') });
});
