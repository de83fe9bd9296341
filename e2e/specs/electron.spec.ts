import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { startScriptedApi } from '../../src-main/devtools/scripted-api/server';
import { electronUnavailable } from '../fixtures/electron-availability';
import type { CarapaceBridge } from '../../src-shared/ipc/wire';

const ROOT = path.resolve(import.meta.dirname, '../..');

const reason = electronUnavailable();
test.skip(reason !== null, reason ?? '');

test('the desktop window opens a project and streams a reply through Electron IPC', async () => {
  const api = await startScriptedApi({
    scenario: {
      steps: [
        {
          reply: { content: [{ type: 'text', text: 'Hello from the desktop' }], chunkChars: 4, delayMs: 10 },
        },
      ],
    },
  });
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-electron-'));
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-electron-project-'));
  const app = await electron.launch({
    args: [ROOT],
    env: { ...process.env, CARAPACE_HOME: home, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'k' },
  });
  try {
    const page = await app.firstWindow();
    // The renderer is isolated: no Node, only the narrow bridge.
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe(
      'undefined',
    );
    expect(
      await page.evaluate(() =>
        Object.keys((window as unknown as { carapace?: object }).carapace ?? {}).sort(),
      ),
    ).toEqual(['invoke', 'on']);
    await page.getByRole('button', { name: 'Open project…' }).first().click();
    await page.getByRole('dialog').getByLabel('Folder path').fill(project);
    await page.getByRole('dialog').getByLabel('Folder path').press('Enter');
    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Hello from the desktop');
    // A bad payload through the real bridge gets a typed error.
    const bad = await page.evaluate(() =>
      (window as unknown as { carapace: CarapaceBridge }).carapace.invoke('projects.open', { path: 42 }),
    );
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  } finally {
    await app.close();
    await api.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});
