import { expect, newSessionTab, send, test } from '../fixtures/test';

const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });

/** A reply using what people see from models: headings, a table, a task list, code, links, HTML. */
const REPLY = [
  '# Release plan',
  '',
  'The **build** passes; see [the docs](https://example.com/docs) or [this](javascript:window.pwned=1).',
  '',
  '## Status',
  '',
  '| Step | Owner | Done |',
  '|:-----|:-----:|-----:|',
  '| Tests | Ana | yes |',
  '| Docs | Bo | no |',
  '',
  '- [x] merge the fix',
  '- [ ] tag the release',
  '',
  '### Code',
  '',
  '```ts',
  'export function answer(): number {',
  '  // the only answer',
  '  return 42;',
  '}',
  '```',
  '',
  'Raw HTML stays text: <img src=x onerror="window.pwned=2"> and <script>window.pwned=3</script>.',
].join('\n');

test.use({
  scenario: {
    steps: [
      { times: true, when: { lastUserText: 'show me markdown' }, ...say(REPLY) },
      {
        when: { lastUserText: 'write the helper' },
        reply: {
          content: [
            {
              type: 'tool_use' as const,
              id: 'w1',
              name: 'Write',
              input: {
                file_path: 'src/answer.ts',
                content: '/* The answer,\n   as a function. */\nexport const answer = (): number => 42;\n',
              },
            },
          ],
          stop_reason: 'tool_use' as const,
        },
      },
    ],
  },
});

test('a reply renders tables, task lists, highlighted code and outside links; its HTML runs nothing', async ({
  app: page,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(e.violatedDirective));
  });
  await page.reload();
  await page.setViewportSize({ width: 1200, height: 900 });
  await newSessionTab(page);
  await send(page, 'show me markdown');
  const reply = page.getByRole('article', { name: 'Assistant' }).last();
  await expect(reply).toContainText('Raw HTML stays text');

  // A table, cells aligned by class (no inline styles under the CSP).
  const table = reply.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Step', 'Owner', 'Done']);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('cell', { name: 'Bo' })).toHaveCSS('text-align', 'center');

  // A task list: ticked and not, read-only.
  const boxes = reply.getByRole('checkbox');
  await expect(boxes).toHaveCount(2);
  await expect(boxes.nth(0)).toBeChecked();
  await expect(boxes.nth(1)).not.toBeChecked();
  await expect(boxes.nth(0)).toBeDisabled();

  // Highlighted code: token classes with colours from the theme, not the text colour.
  const code = reply.locator('pre code.hljs.language-ts');
  await expect(code).toBeVisible();
  const keyword = code.locator('.hljs-keyword').first();
  await expect(keyword).toHaveText('export');
  const colours = await code.evaluate((el) => ({
    keyword: getComputedStyle(el.querySelector('.hljs-keyword') as Element).color,
    comment: getComputedStyle(el.querySelector('.hljs-comment') as Element).color,
    text: getComputedStyle(el).color,
  }));
  expect(colours.keyword).not.toBe(colours.text);
  expect(colours.comment).not.toBe(colours.keyword);

  // Links open outside the app; a javascript: link is only text.
  const link = reply.getByRole('link', { name: 'the docs' });
  await expect(link).toHaveAttribute('href', 'https://example.com/docs');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(reply.getByRole('link')).toHaveCount(1);
  await expect(reply).toContainText('this');

  // Headings sized by level, all below the app's own.
  const sizes = await reply.evaluate((el) =>
    ['.md-h1', '.md-h2', '.md-h3'].map((s) =>
      parseFloat(getComputedStyle(el.querySelector(s) as Element).fontSize),
    ),
  );
  const [h1 = 0, h2 = 0, h3 = 0] = sizes;
  expect(h1).toBeGreaterThan(h2);
  expect(h2).toBeGreaterThan(h3);
  expect(h1).toBeLessThan(21);

  // The model's HTML is text on screen, no element, and nothing ran or was blocked.
  await expect(reply).toContainText('<img src=x onerror="window.pwned=2">');
  await expect(reply).toContainText('<script>window.pwned=3</script>');
  await expect(reply.locator('img, script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );

  await reply.screenshot({ path: '/tmp/shots/markdown-reply-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await reply.screenshot({ path: '/tmp/shots/markdown-reply-dark.png' });
});

test('a proposed Write shows line numbers and syntax colours', async ({ app: page }) => {
  await page.setViewportSize({ width: 1200, height: 900 });
  await newSessionTab(page);
  await send(page, 'write the helper');
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  const diff = prompt.getByLabel(/^Proposed changes to .*answer\.ts$/);
  const first = diff.locator('.diff-add').first();
  await expect(first).toHaveText('+ /* The answer,');
  // Line numbers come from CSS (copying the diff copies only code); the new side counts from 1.
  const numbers = await diff
    .locator('.diff-add .diff-ln:nth-child(2)')
    .evaluateAll((els) => els.map((e) => getComputedStyle(e, '::before').content));
  expect(numbers.slice(0, 3)).toEqual(['"1"', '"2"', '"3"']);
  // The comment spans two lines and is coloured on both.
  await expect(diff.locator('.diff-add').nth(1).locator('.hljs-comment')).toHaveText('   as a function. */');
  await expect(diff.locator('.diff-add').nth(2).locator('.hljs-keyword').first()).toHaveText('export');
  await prompt.screenshot({ path: '/tmp/shots/markdown-diff-preview.png' });
});
