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
