import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * MCP in the app, in Chromium over serve mode against the scripted Messages API, with real MCP
 * servers (the SDK's McpServer over stdio): the trust prompt lists a project's servers; once trusted,
 * Settings → MCP shows one connected and one failed (its command fails until a file exists); after
 * the file appears, Restart (from the keyboard) connects it; a session's model calls a server's tool.
 */

const SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp-echo-server.mjs');
// The person's home for this run: `~/.claude.json` (user-scope servers) is read and written there.
const HOME = mkdtempSync(path.join(tmpdir(), 'carapace-mcp-home-'));

test.use({
  openProject: false,
  serveEnv: { HOME },
  scenario: {
    steps: [
      {
        times: true,
        when: { lastUserText: 'use echo' },
        reply: {
          content: [{ type: 'tool_use', id: 'm1', name: 'mcp__good__echo', input: { text: 'ping' } }],
          stop_reason: 'tool_use',
        },
      },
      {
        times: true,
        when: { lastUserText: 'echo: ping' },
        reply: { content: [{ type: 'text', text: 'The server answered.' }] },
      },
    ],
  },
});

test('the MCP page shows a connected and a failed server and restarts the failed one', async ({
  app: page,
  project,
}, testInfo) => {
  const flag = path.join(project, 'ready.flag');
  const calls = path.join(project, 'calls.txt');
  const server = (env: Record<string, string>) => ({ command: process.execPath, args: [SERVER], env });
  writeFileSync(
    path.join(project, '.mcp.json'),
    JSON.stringify({
      mcpServers: { good: server({ MCP_ECHO_CALLS: calls }), flaky: server({ MCP_ECHO_REQUIRES: flag }) },
    }),
  );

  // Opening the folder asks about its servers; nothing starts before "Trust".
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  const open = page.getByRole('dialog', { name: 'Open project' });
  await open.getByLabel('Folder path').fill(project);
  await open.getByRole('button', { name: 'Open', exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Trust this folder?' });
  const listed = prompt.getByRole('region', { name: 'MCP servers' });
  await expect(listed).toContainText('MCP server "good": runs');
  await expect(listed).toContainText('MCP server "flaky": runs');
  // Each with what it runs and its environment, as written.
  await expect(listed).toContainText(`env MCP_ECHO_REQUIRES=${flag}`);
  expect(existsSync(calls)).toBe(false);
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'mcp-trust-900x600.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
  await prompt.getByRole('button', { name: 'Trust', exact: true }).click();
  await expect(prompt).toBeHidden();

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings
    .getByRole('navigation', { name: 'Settings pages' })
    .getByRole('button', { name: 'MCP' })
    .click();
  const mcp = settings.getByRole('region', { name: 'MCP servers' });
  await expect(mcp.getByRole('status', { name: 'good: Connected' })).toBeVisible();
  await expect(mcp.getByRole('status', { name: 'flaky: Failed' })).toBeVisible();
  const good = mcp.getByRole('listitem', { name: 'MCP server good' });
  await good.getByText('1 tool').click();
  await expect(good).toContainText('mcp__good__echo');
  const flaky = mcp.getByRole('listitem', { name: 'MCP server flaky' });
  await flaky.getByRole('button', { name: 'Logs of flaky' }).click();
  await expect(flaky.getByLabel('Log of flaky')).toContainText('ready.flag is missing');

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.screenshot({ path: docsScreenshot(testInfo, 'mcp-page-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await flaky.scrollIntoViewIfNeeded();
  await page.screenshot({ path: docsScreenshot(testInfo, 'mcp-page-900x600.png') });

  // The file appears; Restart, from the keyboard, connects the server.
  writeFileSync(flag, '');
  const restart = flaky.getByRole('button', { name: 'Restart flaky' });
  await restart.focus();
  await page.keyboard.press('Enter');
  await expect(mcp.getByRole('status', { name: 'flaky: Connected' })).toBeVisible();
  await expect(mcp.getByRole('status', { name: 'good: Connected' })).toBeVisible();

  // Switched off and on again: the switch is written to the project's local settings.
  await good.getByRole('button', { name: 'Disable good' }).click();
  await expect(mcp.getByRole('status', { name: 'good: Disabled' })).toBeVisible();
  const local = path.join(project, '.claude', 'settings.local.json');
  expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ disabledMcpjsonServers: ['good'] });
  await good.getByRole('button', { name: 'Enable good' }).click();
  await expect(mcp.getByRole('status', { name: 'good: Connected' })).toBeVisible();

  // "Add a server": a bad address is refused in words; a good one is written and started.
  const add = mcp.getByRole('form', { name: 'Add an MCP server' });
  await add.getByLabel('Name').fill('bad name!');
  await add.getByRole('button', { name: 'Add server' }).click();
  await expect(add.getByRole('alert')).toContainText('Name: Only letters, digits, _ and -');
  await add.getByLabel('Name').fill('mine');
  await add.getByLabel('Save in').selectOption('user');
  await add.getByLabel('Command').fill(process.execPath);
  await add.getByLabel('Arguments').fill(`"${SERVER}"`);
  await add.getByRole('button', { name: 'Add server' }).click();
  await expect(mcp.getByRole('status', { name: 'mine: Connected' })).toBeVisible();
  expect(JSON.parse(readFileSync(path.join(HOME, '.claude.json'), 'utf8'))).toEqual({
    mcpServers: { mine: { command: process.execPath, args: [SERVER] } },
  });
  await page.screenshot({ path: docsScreenshot(testInfo, 'mcp-page-added-900x600.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
  await settings.getByRole('button', { name: 'Close' }).click();

  // A session's model calls the server's tool; the person allows it once.
  await newSessionTab(page);
  await send(page, 'use echo');
  await page
    .getByRole('dialog', { name: 'Permission request' })
    .getByRole('button', { name: 'Allow once' })
    .click();
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript).toContainText('The server answered.');
  expect(readFileSync(calls, 'utf8')).toBe('ping\n');

  // The status bar counts the servers and leads to their page.
  const status = page
    .locator('footer.statusbar')
    .getByRole('button', { name: 'MCP servers: 3 of 3 connected' });
  await expect(status).toHaveText('MCP 3/3');
  // At 900×600 the bar keeps to one line with the button in it.
  await page.setViewportSize({ width: 900, height: 600 });
  const bar = page.locator('footer.statusbar');
  const barBox = await bar.boundingBox();
  const buttonBox = await status.boundingBox();
  expect(barBox && buttonBox && buttonBox.x + buttonBox.width <= barBox.x + barBox.width).toBe(true);
  await page.screenshot({ path: docsScreenshot(testInfo, 'mcp-statusbar-900x600.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
  await status.click();
  await expect(settings.getByRole('region', { name: 'MCP servers' })).toBeVisible();
  await page.screenshot({ path: docsScreenshot(testInfo, 'mcp-statusbar-1400x900.png') });
});
