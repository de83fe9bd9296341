import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * Sub-agents in the window: the main agent calls the Agent tool twice in one message (a
 * general-purpose agent that writes a file and streams slowly, and a Verification agent that gives
 * its verdict). Each request is told apart by its prompt, so the two children run at once.
 */
test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'review the parser' },
        reply: {
          content: [
            { type: 'text', text: 'I will ask two agents.' },
            {
              type: 'tool_use',
              id: 'toolu_explore',
              name: 'Agent',
              input: {
                description: 'Explore the parser',
                prompt: 'CHILD-A: look at the parser and write notes.txt',
                subagent_type: 'general-purpose',
              },
            },
            {
              type: 'tool_use',
              id: 'toolu_verify',
              name: 'Agent',
              input: {
                description: 'Verify the fix',
                prompt: 'CHILD-B: run the tests and say whether the fix holds',
                subagent_type: 'Verification',
              },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1200, output_tokens: 90 },
        },
      },
      // The first child writes a file (which asks the person), then reports slowly.
      {
        when: { lastUserText: 'CHILD-A' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_write',
              name: 'Write',
              input: { file_path: 'notes.txt', content: 'parser notes\n' },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 800, output_tokens: 40 },
        },
      },
      {
        when: { lastUserText: 'CHILD-B' },
        reply: {
          content: [{ type: 'text', text: 'Ran the tests: 12 passed.\nVERDICT: PASS\nEvery test passes.' }],
          usage: { input_tokens: 900, output_tokens: 60 },
        },
      },
      {
        when: { lastUserText: 'File created successfully' },
        reply: {
          content: [
            {
              type: 'text',
              text: 'Explored the parser fully: parseArgs splits on spaces, and notes.txt lists what to fix next.',
            },
          ],
          chunkChars: 3,
          // Held after 'Explored the pa' until the test has seen the card working: a 2 s stream
          // could end first on a loaded machine.
          hold: { afterEvents: 8, gate: 'report' },
          usage: { input_tokens: 1000, output_tokens: 50 },
        },
      },
      {
        when: { lastUserText: 'Explored the parser fully' },
        reply: {
          content: [{ type: 'text', text: 'Both agents are done.' }],
          usage: { input_tokens: 1500, output_tokens: 20 },
        },
      },
    ],
  },
});

// Money as everywhere (money.ts): two decimals from a cent up, less than a cent as "<$0.01".
const COST = /^(<\$0\.01|\$[\d,]+\.\d\d) own · (<\$0\.01|\$[\d,]+\.\d\d) total$/;

test('two Agent calls at once: two live cards with costs, a verdict, the asking agent named, its transcript on expand, and the team view', async ({
  app: page,
  project,
  api,
}, testInfo) => {
  await newSessionTab(page);
  await send(page, 'review the parser');
  const log = page.getByRole('log', { name: 'Transcript' });
  const cards = log.locator('[data-tool="Agent"]');
  await expect(cards).toHaveCount(2);
  const explore = cards.filter({ hasText: 'Explore the parser' });
  const verify = cards.filter({ hasText: 'Verify the fix' });
  await expect(explore).toContainText('general-purpose');
  await expect(verify).toContainText('Verification');

  // The first child asks to write: the prompt and the Inbox say which agent asks, and its card waits.
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toContainText('asked by Explore the parser (general-purpose)');
  await expect(page.getByRole('region', { name: 'Inbox' })).toContainText('Explore the parser');
  await expect(explore).toHaveAttribute('data-agent-state', 'waiting');
  await expect(explore.getByTestId('agent-progress')).toHaveText('Write: notes.txt');

  // Meanwhile the Verification agent finished on its own, with its verdict and its costs.
  await expect(verify).toHaveAttribute('data-agent-state', 'done');
  await expect(verify.getByLabel('Verdict: PASS')).toBeVisible();
  await expect(verify.getByTestId('agent-cost')).toHaveText(COST);
  await expect(verify.getByTestId('agent-cost')).not.toHaveText(/^\$0\.00 own/);

  await prompt.getByRole('button', { name: 'Allow once' }).click();
  // Its report streams into the card's live line while it works.
  await expect(explore.getByTestId('agent-progress')).toContainText('Explored the');
  await expect(explore).toHaveAttribute('data-agent-state', 'working');
  api.release('report');
  await expect(log.getByText('Both agents are done.')).toBeVisible();
  await expect(explore).toHaveAttribute('data-agent-state', 'done');
  await expect(explore.getByTestId('agent-cost')).toHaveText(COST);
  // The exact figures, to the micro-dollar, are in its hover title (money.ts).
  await expect(explore.getByTestId('agent-cost')).toHaveAttribute(
    'title',
    /^\$[\d,]+\.\d*[1-9]\d* own · \$[\d,]+\.\d*[1-9]\d* total$/,
  );
  await page.screenshot({ path: testInfo.outputPath('agent-cards-cost.png') });
  expect(readFileSync(path.join(project, 'notes.txt'), 'utf8')).toBe('parser notes\n');
  // Each child's request held only its own prompt, never its parent's history.
  const child = api.requests.find((r) => JSON.stringify(r.body.messages).includes('CHILD-A'));
  expect(JSON.stringify(child?.body.messages)).not.toContain('review the parser');

  // Expanded, a card shows the sub-agent's own transcript: its Write card and its report.
  await explore.locator(':scope > summary').click();
  const sub = page.getByRole('log', { name: 'Transcript of Explore the parser' });
  await expect(sub.locator('[data-tool="Write"]')).toHaveAttribute('data-state', 'done');
  await expect(sub).toContainText('parseArgs splits on spaces');

  // The team view lists both under the main agent with their states.
  await page.getByRole('button', { name: /^Team view/ }).click();
  const tree = page.getByRole('tree', { name: 'Members' });
  const members = tree.getByRole('treeitem');
  await expect(members).toHaveCount(3);
  await expect(members.nth(0)).toHaveAttribute('data-member', 'Main agent');
  const exploreCard = tree.locator('[data-member="Explore the parser"]');
  const verifyCard = tree.locator('[data-member="Verify the fix"]');
  await expect(exploreCard).toHaveAttribute('data-state', 'done');
  await expect(exploreCard).toHaveAttribute('aria-level', '2');
  await expect(verifyCard).toHaveAttribute('data-state', 'done');
  await expect(verifyCard.getByLabel('Verdict: PASS')).toBeVisible();
  await expect(verifyCard.getByTestId('member-cost')).toHaveText(COST);
  // Keyboard: ↓ to the first child, Enter opens its transcript beside the cards.
  await members.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('log', { name: 'Transcript of Explore the parser' })).toContainText(
    'parseArgs splits on spaces',
  );
  await page.keyboard.press('Escape');
  await expect(tree).toBeHidden();

  // After a reload the window holds no sub-agent transcript: expanding fetches it.
  await page.reload();
  const again = page.getByRole('log', { name: 'Transcript' }).locator('[data-tool="Agent"]');
  await expect(again).toHaveCount(2);
  const verifyAgain = again.filter({ hasText: 'Verify the fix' });
  await expect(verifyAgain.getByLabel('Verdict: PASS')).toBeVisible();
  await verifyAgain.locator(':scope > summary').click();
  await expect(page.getByRole('log', { name: 'Transcript of Verify the fix' })).toContainText(
    'Ran the tests: 12 passed.',
  );
  expect(existsSync(path.join(project, 'notes.txt'))).toBe(true);
});
