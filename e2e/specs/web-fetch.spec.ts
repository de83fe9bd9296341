import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/*
 * WebFetch in the app: a domain no rule allows is asked about in the permission dialog, which offers
 * the domain rule; "Always allow" writes it, the page is fetched from a real local server, read by
 * the small model (the scripted API), and its answer reaches the transcript.
 */

let site: Server;
let port = 0;
const hits: string[] = [];

test.beforeAll(async () => {
  site = createServer((req, res) => {
    hits.push(req.url ?? '');
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><body><h1>Carapace docs</h1><p>The answer is <b>42</b>.</p></body></html>');
  });
  site.listen(0, '127.0.0.1');
  await new Promise((resolve) => site.once('listening', resolve));
  port = (site.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

test('a new domain asks with its WebFetch(domain:…) rule; "Always allow" writes it and the small model answers from the page', async ({
  app: page,
  api,
  project,
}, testInfo) => {
  const url = `http://localhost:${port}/docs`;
  api.setScenario({
    steps: [
      {
        when: { lastUserText: 'read the docs' },
        reply: {
          content: [
            { type: 'tool_use', id: 'f1', name: 'WebFetch', input: { url, prompt: 'What is the answer?' } },
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { model: 'claude-haiku-4-5' },
        reply: { content: [{ type: 'text', text: 'The page says 42.' }] },
      },
      {
        when: { lastUserText: 'The page says 42' },
        reply: { content: [{ type: 'text', text: 'It is 42.' }] },
      },
    ],
  });
  await page.setViewportSize({ width: 1400, height: 900 });
  await newSessionTab(page);
  await send(page, 'read the docs');
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText(url);
  await expect(prompt).toContainText('WebFetch would fetch from localhost');
  await expect(prompt.getByRole('textbox', { name: 'Rule' })).toHaveValue('WebFetch(domain:localhost)');
  expect(hits).toEqual([]);
  await page.screenshot({ path: docsScreenshot(testInfo, 'webfetch-ask-1400x900.png') });
  await page.setViewportSize({ width: 900, height: 600 });
  await expect(prompt.getByRole('button', { name: 'Always allow' })).toBeInViewport();
  await page.screenshot({ path: docsScreenshot(testInfo, 'webfetch-ask-900x600.png') });

  await prompt.getByRole('button', { name: 'Always allow' }).click();
  await expect(prompt).toBeHidden();
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript).toContainText('It is 42.');
  await expect(transcript.locator('[data-tool="WebFetch"]')).toContainText(url);
  expect(hits).toEqual(['/docs']);
  const reader = api.requests.find((r) => r.body.model === 'claude-haiku-4-5');
  expect(JSON.stringify(reader?.body.messages)).toContain('The answer is **42**.');
  const local = JSON.parse(readFileSync(path.join(project, '.claude/settings.local.json'), 'utf8')) as {
    permissions: { allow: string[] };
  };
  expect(local.permissions.allow).toEqual(['WebFetch(domain:localhost)']);
  await page.screenshot({ path: docsScreenshot(testInfo, 'webfetch-done-900x600.png') });
});
