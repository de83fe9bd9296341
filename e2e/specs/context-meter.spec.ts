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

test.describe('an automatic compaction', () => {
  const full = { input_tokens: 150_000, cache_read_input_tokens: 20_000, output_tokens: 50 };
  test.use({
    scenario: {
      steps: [
        { reply: { content: [{ type: 'text', text: 'First answer.' }], usage: full } },
        {
          reply: {
            content: [{ type: 'text', text: 'SUMMARY: the person asked a first question.' }],
            usage: { input_tokens: 1_000, output_tokens: 20 },
          },
        },
        {
          reply: {
            content: [{ type: 'text', text: 'Second answer.' }],
            usage: { input_tokens: 1_200, output_tokens: 20 },
          },
        },
      ],
    },
  });

  test('is a note in the transcript that expands to its summary; the meter drops back', async ({
    app: page,
  }) => {
    await page.setViewportSize({ width: 900, height: 600 });
    await newSessionTab(page);
    const meter = page.getByRole('meter', { name: 'Context used' });
    await send(page, 'first question');
    await expect(meter).toHaveText('170k / 200k');
    await send(page, 'second question');
    const log = page.getByRole('tabpanel').getByRole('log');
    await expect(log).toContainText('Second answer.');
    await expect(log).toContainText(/Conversation compacted \(auto\): \d+ messages? summarized/);
    await expect(meter).toHaveText('1k / 200k');
    const toggle = log.getByRole('button', { name: 'Show summary' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    // The summary as the conversation goes on from it (the model's words inside the harness's frame).
    await expect(log.getByRole('region', { name: 'Compaction summary' })).toContainText(
      'SUMMARY: the person asked a first question.',
    );
    await expect(log.getByRole('button', { name: 'Hide summary' })).toHaveAttribute('aria-expanded', 'true');
    await page.screenshot({ path: docsScreenshot(test.info(), 'compaction-note-900x600.png') });
  });
});
