import { docsScreenshot } from '../fixtures/screenshots';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/** 130,000 fresh input, 20,000 read from the cache, 200 out: 150,200 tokens, past 80 % of 167k. */
const usage = { input_tokens: 130_000, cache_read_input_tokens: 20_000, output_tokens: 200 };

test.use({
  scenario: {
    steps: [{ reply: { content: [{ type: 'text', text: 'A long answer, DONE.' }], usage } }],
  },
});

test('the status bar’s context meter shows the tokens of the window after a response, amber near autocompact', async ({
  app: page,
}) => {
  await page.setViewportSize({ width: 900, height: 600 });
  await newSessionTab(page);
  const bar = page.locator('footer.statusbar');
  const meter = bar.getByRole('meter', { name: 'Context used' });
  await expect(meter).toHaveText('0 / 200k');
  await expect(meter).not.toHaveClass(/context-meter-near/);

  await send(page, 'read the whole repository');
  await expect(page.getByRole('tabpanel').getByRole('log')).toContainText('DONE');
  await expect(meter).toHaveText('150k / 200k');
  await expect(meter).toHaveAttribute(
    'title',
    '150,200 of 200,000 tokens in context; autocompact at 167k (16,800 tokens to go).',
  );
  await expect(meter).toHaveClass(/context-meter-near/);

  // At 900 px the status bar keeps to one line and nothing in it is cut off.
  const fits = await bar.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const kids = [...el.children].map((c) => c.getBoundingClientRect());
    return {
      overflow: el.scrollWidth - el.clientWidth,
      oneLine: kids.every((k) => Math.abs(k.top - (kids[0]?.top ?? 0)) < k.height),
      inside: kids.every((k) => k.left >= box.left && k.right <= box.right + 0.5),
      height: box.height,
    };
  });
  expect(fits).toMatchObject({ overflow: 0, oneLine: true, inside: true });
  expect(fits.height).toBeLessThan(40);
  await page.screenshot({ path: docsScreenshot(test.info(), 'context-meter-900x600.png') });
});
