import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';
import { docsScreenshot } from '../fixtures/screenshots';

// Every reply asks for one more harmless tool call, so only the budget ends the turn. By hand from
// the price table: Sonnet 4.5 (the default model) input is $3 per million tokens, so 100,000 input
// tokens cost $0.30 a reply.
test.use({
  scenario: {
    steps: [
      {
        times: true,
        reply: {
          content: [{ type: 'tool_use' as const, name: 'Glob', input: { pattern: '*.nothing' } }],
          stop_reason: 'tool_use' as const,
          usage: { input_tokens: 100_000, output_tokens: 0 },
        },
      },
    ],
  },
});

test('a session pauses at its budget, the Inbox asks; "allow $1 more" lets it go on, "stop" ends it', async ({
  app: page,
  serve,
  api,
}, testInfo) => {
  // The person's own settings: a $1 session budget (read before every model request).
  writeFileSync(path.join(serve.home, 'settings.json'), JSON.stringify({ budgets: { sessionUsd: 1 } }));
  await page.setViewportSize({ width: 900, height: 600 });
  const replies = () => api.requests.filter((r) => r.body.model === 'claude-sonnet-4-5').length;

  await newSessionTab(page);
  await send(page, 'keep looking');
  const inbox = page.getByRole('region', { name: 'Inbox' });
  const question = inbox.getByRole('group', { name: /Budget reached/ });
  // $0.30, $0.60, $0.90 (a warning at 80%), $1.20: paused before the fifth request.
  await expect(question).toBeVisible({ timeout: 20_000 });
  await expect(question).toContainText('$1.20 of the session budget of $1.00');
  expect(replies()).toBe(4);
  await expect(page.getByRole('tab').first()).toHaveAttribute('data-badge', 'waiting');
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript).toContainText('80% of the session budget of $1.00 spent');
  await page.screenshot({ path: docsScreenshot(testInfo, 'budget-inbox-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: docsScreenshot(testInfo, 'budget-inbox-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // Allow $1 more (the amount offered): the limit is $2.00; $1.50, $1.80, $2.10 pauses again.
  await expect(question.getByRole('textbox', { name: 'Amount to allow, in USD' })).toHaveValue('1.00');
  await question.getByRole('button', { name: 'Allow $1.00 more' }).click();
  await expect(question).toContainText('$2.10 of the session budget of $2.00', { timeout: 20_000 });
  expect(replies()).toBe(7);

  // Stop: the turn ends with a clear notice, and no further request goes out.
  await question.getByRole('button', { name: 'Stop' }).click();
  await expect(inbox).toBeHidden();
  await expect(transcript).toContainText('Budget reached: stopped at $2.10');
  await expect(page.getByRole('tab').first()).not.toHaveAttribute('data-badge', 'waiting');
  expect(replies()).toBe(7);

  // The pause and the answers are in the session's transcript.
  const slugDir = path.join(serve.home, 'projects');
  const files = readdirSync(slugDir, { recursive: true }) as string[];
  const file = files.find((f) => f.endsWith('.jsonl') && !f.includes('subagents'));
  const events = readFileSync(path.join(slugDir, file ?? ''), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; event?: string })
    .filter((l) => l.type === 'budget')
    .map((l) => l.event);
  expect(events).toEqual(['warning', 'paused', 'allowed', 'paused', 'stopped']);
});

test.describe('a limit set by the managed policy', () => {
  const policyFile = path.join(mkdtempSync(path.join(tmpdir(), 'carapace-policy-')), 'managed-settings.json');
  test.use({ serveEnv: { CARAPACE_MANAGED_SETTINGS: policyFile } });

  test('offers only "Stop", and says the limit is set by policy', async ({ app: page, serve, api }) => {
    // The person allows $5; the policy caps the session at $0.50: $0.30, $0.60 pauses.
    writeFileSync(path.join(serve.home, 'settings.json'), JSON.stringify({ budgets: { sessionUsd: 5 } }));
    writeFileSync(policyFile, JSON.stringify({ budgets: { sessionUsd: 0.5 } }));
    const replies = () => api.requests.filter((r) => r.body.model === 'claude-sonnet-4-5').length;
    await newSessionTab(page);
    await send(page, 'keep looking');
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const question = inbox.getByRole('group', { name: /Budget reached/ });
    await expect(question).toBeVisible({ timeout: 20_000 });
    await expect(question).toContainText('$0.60 of the session budget of $0.50');
    await expect(question).toContainText('set by your organization');
    await expect(question.getByRole('button', { name: /Allow .* more/ })).toHaveCount(0);
    await expect(question.getByRole('textbox', { name: 'Amount to allow, in USD' })).toHaveCount(0);
    await question.press('Enter');
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Stop' }).click();
    await expect(inbox).toBeHidden();
    await expect(page.getByRole('log', { name: 'Transcript' })).toContainText(
      'Budget reached: stopped at $0.60',
    );
    expect(replies()).toBe(2);
  });
});
