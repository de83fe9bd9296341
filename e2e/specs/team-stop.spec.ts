import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * Stopping one member from the team view: two sub-agents stream slowly; the person stops one with S
 * on its card (confirmed with S); it ends as stopped, the other finishes, and the main agent carries
 * on with both results — the stopped one recorded as interrupted.
 */
const SLOW = (label: string) => ({
  content: [{ type: 'text' as const, text: `${label} ${'is reading the code carefully. '.repeat(12)}` }],
  chunkChars: 2,
  delayMs: 40,
});

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'two agents' },
        reply: {
          content: ['Keep', 'Halt'].map((name) => ({
            type: 'tool_use' as const,
            id: `toolu_${name}`,
            name: 'Agent',
            input: { description: name, prompt: `CHILD-${name}`, subagent_type: 'general-purpose' },
          })),
          stop_reason: 'tool_use',
        },
      },
      { when: { lastUserText: 'CHILD-Keep' }, reply: { ...SLOW('keep'), delayMs: 8 } },
      // Held mid-answer (never let go): the person stops it however long reaching the card takes.
      {
        when: { lastUserText: 'CHILD-Halt' },
        reply: { ...SLOW('halt'), hold: { afterEvents: 6, gate: 'halt' } },
      },
      {
        when: { lastUserPattern: 'keep is reading' },
        reply: { content: [{ type: 'text', text: 'One finished, one was stopped.' }] },
      },
    ],
  },
});

test('S on a member’s card stops that sub-agent alone; the turn carries on with the other', async ({
  app: page,
  api,
}) => {
  await newSessionTab(page);
  await send(page, 'two agents please');
  await page.getByRole('button', { name: /^Team view/ }).click();
  const tree = page.getByRole('tree', { name: 'Members' });
  const halt = tree.locator('[data-member="Halt"]');
  await expect(halt).toHaveAttribute('data-state', 'working');
  await halt.focus();
  await page.keyboard.press('s');
  await expect(page.getByRole('group', { name: 'Stop Halt?' })).toBeVisible();
  await page.keyboard.press('s');
  await expect(halt).toHaveAttribute('data-state', 'failed');
  await expect(tree.locator('[data-member="Keep"]')).toHaveAttribute('data-state', 'done');
  await page.getByRole('region', { name: 'Team view' }).getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' }).first()).toContainText(
    'One finished, one was stopped.',
  );
  // The main agent was told which call was interrupted.
  const last = api.requests.at(-1);
  const results = JSON.stringify(last?.body.messages?.at(-1)?.content);
  expect(results).toContain('Interrupted by user: the general-purpose agent was stopped.');
  expect(results).toContain('keep is reading');
});
