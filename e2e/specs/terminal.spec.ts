import { delayServer } from '../fixtures/delay-server';
import { expect, newSessionTab, test } from '../fixtures/test';
import type { Page } from '@playwright/test';

/** The DOM renderer draws text we can read; WebGL draws on a canvas. */
async function useDomRenderer(app: Page) {
  await app.getByRole('button', { name: 'Settings' }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings' });
  const gpu = dialog.getByRole('checkbox', { name: 'Draw terminals with the GPU (WebGL)' });
  await expect(gpu).toBeChecked();
  // The box shows the saved setting, so it changes once the main process has stored it.
  await gpu.click();
  await expect(gpu).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

async function openTerminal(app: Page) {
  await app.getByRole('tabpanel').getByRole('button', { name: 'Terminal' }).click();
  const panel = app.getByRole('region', { name: 'Terminal' });
  await expect(panel).toBeVisible();
  await expect(panel.locator('.terminal-host')).toHaveAttribute('data-renderer', 'dom');
  return panel;
}

async function run(app: Page, panel: ReturnType<Page['getByRole']>, line: string) {
  await panel.locator('.xterm').click();
  await app.keyboard.type(line);
  await app.keyboard.press('Enter');
}

test('the terminal panel runs echo and shows the output; it survives a reload with its scrollback', async ({
  app,
}) => {
  await newSessionTab(app);
  await useDomRenderer(app);
  const panel = await openTerminal(app);
  const screen = panel.locator('.xterm-rows');
  await run(app, panel, 'echo "hello-$((6*7))"');
  await expect(screen).toContainText('hello-42');
  await run(app, panel, 'pwd');
  await app.reload();
  // Reopened from the main process, screen and all.
  const again = app.getByRole('region', { name: 'Terminal' });
  await expect(again.locator('.xterm-rows')).toContainText('hello-42');
  await run(app, again, 'echo "after-$((1+1))"');
  await expect(again.locator('.xterm-rows')).toContainText('after-2');
});

test('keys typed the moment the terminal opens, before the slow server has attached the shell, all arrive', async ({
  app,
}) => {
  const delay = { ms: 0 };
  await delayServer(app, delay);
  await app.reload();
  await newSessionTab(app);
  await useDomRenderer(app);
  // The panel shows (and takes the keys) at once; the shell's id comes a second later.
  delay.ms = 1000;
  await app.getByRole('tabpanel').getByRole('button', { name: 'Terminal' }).click();
  const panel = app.getByRole('region', { name: 'Terminal' });
  await run(app, panel, 'echo "early-$((5*5))"');
  await expect(panel.locator('.xterm-rows')).toContainText('early-25', { timeout: 15_000 });
});

test('a flood (yes) leaves the window usable; Ctrl+C gets through; Close ends the shell', async ({ app }) => {
  await newSessionTab(app);
  await useDomRenderer(app);
  const panel = await openTerminal(app);
  await run(app, panel, 'yes carapace-flood');
  await expect(panel.locator('.xterm-rows')).toContainText('carapace-flood');
  // The rest of the window still answers while output pours in.
  const tab = app.getByRole('tabpanel');
  await tab.getByRole('button', { name: 'Permission log' }).click();
  await expect(app.getByRole('region', { name: 'Permission log' })).toBeVisible();
  await tab.getByRole('textbox', { name: 'Message' }).fill('still typing');
  await expect(tab.getByRole('textbox', { name: 'Message' })).toHaveValue('still typing');
  await panel.locator('.xterm').click();
  await app.keyboard.press('Control+C');
  await run(app, panel, 'echo "stopped-$((1+2))"');
  await expect(panel.locator('.xterm-rows')).toContainText('stopped-3', { timeout: 15_000 });
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(app.getByRole('region', { name: 'Terminal' })).toHaveCount(0);
});

test('under the strict CSP and without a GPU, the terminal draws monospace cells and a visible cursor', async ({
  app,
}) => {
  // Everything the policy blocks from here on, as events and as console messages (styles above all;
  // nothing else should be refused either: zod runs jitless, without its eval probe).
  await app.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.cspViolations.push(`${e.violatedDirective} at ${e.sourceFile}:${e.lineNumber}: ${e.sample}`);
    });
  });
  const consoleCsp: string[] = [];
  app.on('console', (m) => {
    if (/content security policy/i.test(m.text())) consoleCsp.push(m.text());
  });
  await app.reload();
  await newSessionTab(app);
  await useDomRenderer(app);
  const panel = await openTerminal(app);
  const rows = panel.locator('.xterm-rows');
  // Each word on a row of its own.
  await run(app, panel, "printf '%s\\n' iiiiiiiiiiiiiiiiiiii WWWWWWWWWWWWWWWWWWWW");
  await expect(rows.locator('> div', { hasText: /^W{20}\s*$/ })).toHaveCount(1);

  const measured = await rows.evaluate((el) => {
    const width = (re: RegExp) => {
      const row = [...el.children].find((r) => re.test(r.textContent));
      if (!row) throw new Error(`no row matches ${re}`);
      const range = document.createRange();
      range.selectNodeContents(row);
      // The text's own extent: the row's box is the terminal's full width.
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      return Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left));
    };
    return {
      i: width(/^i{20}\s*$/),
      w: width(/^W{20}\s*$/),
      font: getComputedStyle(el).fontFamily,
    };
  });
  console.log(
    `terminal: 20×i ${measured.i.toFixed(2)} px, 20×W ${measured.w.toFixed(2)} px; font ${measured.font}`,
  );
  expect(measured.font).toContain('monospace');
  expect(measured.i).toBeGreaterThan(60);
  expect(Math.abs(measured.i - measured.w)).toBeLessThan(1);

  const accent = await app.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--accent');
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });

  // Focused: a one-cell block in the accent colour, blinking (held at its "on" frame to read it).
  const cursor = rows.locator('.xterm-cursor');
  await expect(cursor).toHaveCount(1);
  const focused = await cursor.evaluate((c) => {
    for (const a of c.getAnimations()) {
      a.pause();
      a.currentTime = 0;
    }
    const s = getComputedStyle(c);
    const box = c.getBoundingClientRect();
    return {
      width: box.width,
      height: box.height,
      animation: s.animationName,
      background: s.backgroundColor,
    };
  });
  console.log(`cursor: ${focused.width.toFixed(2)}×${focused.height.toFixed(2)} px, ${focused.background}`);
  expect(focused.width).toBeCloseTo(measured.w / 20, 0);
  expect(focused.height).toBeGreaterThan(8);
  expect(focused.animation).toMatch(/^blink_block_/);
  expect(focused.background).toBe(accent);
  await app.screenshot({ path: test.info().outputPath('terminal-focused.png') });

  // Unfocused: an outline in the accent colour, drawn all the time.
  await app.getByRole('tabpanel').getByRole('textbox', { name: 'Message' }).click();
  await expect.poll(() => cursor.evaluate((c) => getComputedStyle(c).outlineStyle)).toBe('solid');
  expect(await cursor.evaluate((c) => getComputedStyle(c).outlineColor)).toBe(accent);
  await app.screenshot({ path: test.info().outputPath('terminal-unfocused.png') });

  expect(await app.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
  expect(consoleCsp).toEqual([]);
});
