import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * A background agent in the window: the Agent call returns at once (the main agent answers while
 * the sub-agent is still working), the task list shows it running, and when it ends a toast says so
 * and its result is in the task's output.
 */
const RESULT = 'background result: 3 TODOs in src/';

test.use({
  scenario: {
    steps: [
      {
        when: { lastUserText: 'count the TODOs' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_bg',
              name: 'Agent',
              input: {
                description: 'Count TODOs',
                prompt: 'BG-CHILD: count the TODO comments',
                subagent_type: 'general-purpose',
                run_in_background: true,
              },
            },
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'Started the general-purpose agent' },
        reply: { content: [{ type: 'text', text: 'It runs in the background.' }] },
      },
      // Held until the test has seen the main agent answer with the task still running (a 3 s
      // stream bet that the main agent's answer would come first, which a loaded machine can lose).
      {
        when: { lastUserText: 'BG-CHILD' },
        reply: {
          content: [{ type: 'text', text: RESULT }],
          chunkChars: 4,
          hold: { afterEvents: 4, gate: 'bg' },
        },
      },
    ],
  },
});

test('an Agent call with run_in_background returns at once; the person is told when it ends and its result is kept', async ({
  app: page,
  api,
}) => {
  await newSessionTab(page);
  await send(page, 'count the TODOs');
  const transcript = page.getByRole('log', { name: 'Transcript' }).first();
  await expect(transcript).toContainText('It runs in the background.');
  const tasks = page.getByRole('region', { name: 'Background tasks' });
  const task = tasks.getByRole('listitem', { name: 'Task Count TODOs' });
  // The main agent has answered, and the background agent is still at work.
  await expect(task.locator('[data-status]')).toHaveAttribute('data-status', 'running');
  api.release('bg');
  await expect(page.getByRole('alert')).toContainText('Background agent “Count TODOs” finished');
  await expect(task.locator('[data-status]')).toHaveAttribute('data-status', 'completed');
  await task.locator('summary').click();
  await expect(task.getByLabel('Output')).toContainText(RESULT);
});
