import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startServe, tempProject } from '../fixtures/serve';

test('with no key and no base URL, sessions use the labelled demo model; a key switches new sessions to Claude', async ({
  page,
}) => {
  const project = tempProject();
  const serve = await startServe({ project });
  try {
    await page.goto(serve.url);
    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('demo');
    await expect(page.getByRole('combobox', { name: 'Model' }).locator('option:checked')).toHaveText(
      'Demo model (scripted, free)',
    );
    await page.getByRole('textbox', { name: 'Message' }).fill('Show me a code example');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('log', { name: 'Transcript' });
    await expect(log).toContainText('This is the Demo model');
    await expect(log.locator('pre')).toContainText('function greet');
    await expect(page.getByTestId('session-state')).toHaveText('idle', { timeout: 15_000 });
    await expect(page.getByTestId('session-cost')).toHaveText('$0 (demo)');
    await expect(page.getByTestId('session-tokens')).not.toHaveText('0 tokens');

    // Setting a key (kept in memory in serve mode) switches *new* sessions to the real API.
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await expect(settings).toContainText('none — new sessions use the Demo model');
    await settings.getByLabel('New API key').fill('sk-ant-test-key');
    await settings.getByRole('button', { name: 'Save key' }).click();
    await expect(settings).toContainText('API key: stored');
    await expect(settings.getByLabel('New API key')).toHaveValue('');
    await settings.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-sonnet-4-5');
    await expect(page.getByTestId('session-cost')).toHaveText('$0.00');
  } finally {
    await serve.stop();
    rmSync(project, { recursive: true, force: true });
  }
});

test('the theme follows the system live, unless Settings pins one', async ({ page }) => {
  const serve = await startServe();
  try {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(serve.url);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Theme').selectOption('dark');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
  } finally {
    await serve.stop();
  }
});
