import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';

test.use({
  scenario: {
    steps: [
      // An edit: Read, then Edit, then a word.
      {
        when: { lastUserText: 'fix the greeting' },
        reply: {
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'greeting.txt' } },
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'hello wrld' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_edit',
              name: 'Edit',
              input: { file_path: 'greeting.txt', old_string: 'hello wrld', new_string: 'hello world' },
            },
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'has been updated' },
        reply: { content: [{ type: 'text', text: 'Fixed the typo.' }] },
      },
      // A long command, to stop.
      {
        when: { lastUserText: 'wait a while' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_sleep',
              name: 'Bash',
              input: { command: 'echo started; sleep 30', description: 'Wait half a minute' },
            },
          ],
          stop_reason: 'tool_use',
        },
      },
      // An output-limit recovery: the cut reply is withdrawn, a quiet note says why.
      {
        when: { lastUserText: 'write an essay' },
        reply: {
          content: [{ type: 'text', text: 'TRUNCATED DRAFT' }],
          stop_reason: 'max_tokens',
          delayMs: 40,
          chunkChars: 3,
        },
      },
      {
        when: { lastUserText: 'write an essay' },
        reply: { content: [{ type: 'text', text: 'The complete essay.' }] },
      },
    ],
  },
});

test('tool calls show as cards: Read with its range, Edit with its diff; the file really changes', async ({
  app: page,
  project,
}) => {
  writeFileSync(path.join(project, 'greeting.txt'), 'hello wrld\nbye\n');
  await newSessionTab(page);
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
  await send(page, 'fix the greeting');
  const log = page.getByRole('log', { name: 'Transcript' });
  await expect(log).toContainText('Fixed the typo.');

  const read = log.locator('[data-tool="Read"]');
  await expect(read).toHaveAttribute('data-state', 'done');
  await expect(read.locator(':scope > summary')).toContainText('greeting.txt');
  await expect(read.locator(':scope > summary')).toContainText('lines 1–2 of 2');
  await expect(read.locator('.tool-duration')).toHaveText(/\d+ ms|\d+\.\d s/);
  await read.locator(':scope > summary').click();
  await expect(read.locator('.tool-output')).toContainText('1\thello wrld');

  const edit = log.locator('[data-tool="Edit"]');
  await expect(edit).toHaveAttribute('data-state', 'done');
  await expect(edit.locator(':scope > summary')).toContainText('+1 −1');
  await expect(edit.locator('.diff-del')).toHaveText('- hello wrld');
  await expect(edit.locator('.diff-add')).toHaveText('+ hello world');
  expect(readFileSync(path.join(project, 'greeting.txt'), 'utf8')).toBe('hello world\nbye\n');
});

test('in the default mode an edit waits for approval; denied, the card says so and the file is untouched', async ({
  app: page,
  project,
}) => {
  writeFileSync(path.join(project, 'greeting.txt'), 'hello wrld\n');
  await newSessionTab(page);
  await send(page, 'fix the greeting');
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toContainText('greeting.txt');
  await expect(prompt.getByRole('textbox', { name: 'Rule' })).toHaveValue('Edit(./**)');
  await prompt.getByRole('button', { name: 'Deny' }).click();
  const log = page.getByRole('log', { name: 'Transcript' });
  const edit = log.locator('[data-tool="Edit"]');
  await expect(edit).toHaveAttribute('data-state', 'error');
  await edit.locator(':scope > summary').click();
  await expect(edit).toContainText('Permission to use Edit was denied');
  expect(readFileSync(path.join(project, 'greeting.txt'), 'utf8')).toBe('hello wrld\n');
});

test('Stop interrupts a running command; its card says so and the session is usable again', async ({
  app: page,
}) => {
  await newSessionTab(page);
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('bypassPermissions');
  await send(page, 'wait a while');
  const card = page.getByRole('log').locator('[data-tool="Bash"]');
  await expect(card).toHaveAttribute('data-state', 'running');
  await expect(card.locator(':scope > summary')).toContainText('Wait half a minute');
  // A running Bash card is open on its command and live output without a click.
  await expect(card).toHaveJSProperty('open', true);
  await expect(card.locator('.tool-output')).toContainText('started');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(card).toHaveAttribute('data-state', 'error');
  // Stopped is a failure: the card stays open on what happened.
  await expect(card).toHaveJSProperty('open', true);
  await expect(card.locator('.tool-output')).toContainText('Interrupted');
  await expect(page.getByTestId('session-state')).toHaveText('idle');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
});

test('a withdrawn reply disappears and a quiet note says what happened', async ({ app: page }) => {
  await newSessionTab(page);
  await send(page, 'write an essay');
  const log = page.getByRole('log', { name: 'Transcript' });
  await expect(log).toContainText('The complete essay.');
  await expect(log).not.toContainText('TRUNCATED DRAFT');
  await expect(log.locator('.notice[data-code="max_output_tokens_escalate"]')).toContainText(
    'Output limit hit; retrying with 64000 tokens',
  );
  // The withdrawn draft is not on disk either: a reload shows the same.
  await page.reload();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('The complete essay.');
  await expect(page.getByRole('log', { name: 'Transcript' })).not.toContainText('TRUNCATED DRAFT');
});
