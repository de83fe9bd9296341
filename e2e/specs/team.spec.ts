import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startServe, type ServeProcess } from '../fixtures/serve';
import { expect, send, test } from '../fixtures/test';

/**
 * A coordinator session end to end, through the window: the coordinator creates three workers and
 * sends each a task; they work at once; one asks permission (the Inbox names it); the team view shows
 * their cards, states and costs and opens a worker's transcript; the person writes to a worker; the
 * server restarts mid-team and the mailboxes and transcripts are still there; the worker takes up the
 * person's message at its next request; TeamDelete ends the workers.
 */

const COORDINATOR = '# Coordinator mode';
const worker = (name: string) => `# Team member: ${name}`;
const use = (name: string, input: Record<string, unknown>, id: string) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});
const say = (text: string) => ({ type: 'text' as const, text });
/** Carol's answer streams for about 15 s: long enough to write to her and restart under her. */
const CAROL_STREAM = `carol is reading ${'every file '.repeat(40)}`;

test.use({
  // The server is started by the test itself, twice over the same home: no window from the fixture.
  openProject: false,
  scenario: {
    steps: [
      {
        when: { systemText: COORDINATOR, lastUserText: 'Split the work' },
        reply: {
          content: [
            use(
              'TeamCreate',
              {
                workers: [
                  { name: 'alice', agent_type: 'general-purpose', instructions: 'You own part A.' },
                  { name: 'bob', agent_type: 'general-purpose', instructions: 'You own part B.' },
                  { name: 'carol', agent_type: 'general-purpose', instructions: 'You own part C.' },
                ],
              },
              'create',
            ),
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 500, output_tokens: 40 },
        },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Created 3 workers' },
        reply: {
          content: [
            use('SendMessage', { to: 'alice', message: 'TASK-A' }, 'send-a'),
            use('SendMessage', { to: 'bob', message: 'TASK-B' }, 'send-b'),
            use('SendMessage', { to: 'carol', message: 'TASK-C' }, 'send-c'),
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 600, output_tokens: 40 },
        },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Sent to alice' },
        reply: { content: [say('The team is at work.')], usage: { input_tokens: 700, output_tokens: 10 } },
      },
      {
        when: { systemText: worker('alice'), lastUserText: 'TASK-A' },
        reply: {
          content: [say('alice done: part A is fine.')],
          // Held until the test has seen all three workers ask (see below).
          hold: { afterEvents: 0, gate: 'alice' },
          usage: { input_tokens: 1000, output_tokens: 50 },
        },
      },
      {
        when: { systemText: worker('bob'), lastUserText: 'TASK-B' },
        reply: {
          content: [use('Write', { file_path: 'b.txt', content: 'part B\n' }, 'bob-write')],
          stop_reason: 'tool_use',
          usage: { input_tokens: 2000, output_tokens: 50 },
        },
      },
      {
        when: { systemText: worker('bob'), lastUserText: 'File created' },
        reply: { content: [say('bob done: wrote b.txt')], usage: { input_tokens: 500, output_tokens: 20 } },
      },
      {
        when: { systemText: worker('carol'), lastUserText: 'TASK-C' },
        reply: {
          content: [say(CAROL_STREAM)],
          // Held mid-answer: she is still answering when the person writes to her and when the server
          // restarts, however slow the machine (a 16 s stream was a bet on it).
          chunkChars: 1,
          hold: { afterEvents: 12, gate: 'carol' },
          usage: { input_tokens: 3000, output_tokens: 60 },
        },
      },
      {
        when: { systemText: worker('carol'), lastUserText: 'PERSON-C' },
        reply: {
          content: [say('carol did what the person asked')],
          usage: { input_tokens: 800, output_tokens: 20 },
        },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Continue' },
        reply: { content: [say('Carrying on.')] },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'carol did what the person asked' },
        reply: {
          content: [use('TeamDelete', { workers: ['*'] }, 'delete')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Ended:' },
        reply: { content: [say('All three parts are done.')] },
      },
      {
        when: { systemText: COORDINATOR, lastUserText: 'Messages from your team' },
        times: true,
        reply: { content: [say('Noted.')] },
      },
    ],
  },
});

test.setTimeout(120_000);

/** Starts `carapace serve` on the project with a home kept across restarts, and opens the window. */
async function open(page: Page, project: string, home: string, apiUrl: string): Promise<ServeProcess> {
  const serve = await startServe({
    project,
    home,
    env: { ANTHROPIC_BASE_URL: apiUrl, ANTHROPIC_API_KEY: 'test-key', CARAPACE_MAX_RETRIES: '2' },
  });
  await page.goto(serve.url);
  await expect(page.getByRole('button', { name: 'New session', exact: true })).toBeVisible();
  return serve;
}

test('a coordinator runs three workers; the person approves, watches, writes to one; a restart keeps the team; TeamDelete ends it', async ({
  page,
  project,
  api,
}) => {
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-team-home-'));
  let serve = await open(page, project, home, api.url);
  try {
    await page.getByRole('button', { name: 'New team session' }).click();
    await expect(page.getByRole('tab')).toHaveCount(1);
    await send(page, 'Split the work into three parts');

    // Bob asks to write: the Inbox and the prompt name him.
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await expect(inbox).toContainText('bob');
    await expect(inbox.locator('[data-agent="bob"]')).toBeVisible();
    const prompt = page.getByRole('dialog', { name: 'Permission request' });
    await expect(prompt).toContainText('asked by bob (general-purpose)');

    // The team view: the coordinator and its three workers, bob waiting for the person.
    await page.getByRole('button', { name: /^Team view/ }).click();
    const tree = page.getByRole('tree', { name: 'Members' });
    const card = (name: string) => tree.locator(`[data-member="${name}"]`);
    await expect(tree.getByRole('treeitem')).toHaveCount(4);
    await expect(tree.getByRole('treeitem').first()).toHaveAttribute('data-member', 'Coordinator');
    for (const name of ['alice', 'bob', 'carol']) await expect(card(name)).toHaveAttribute('aria-level', '2');
    await expect(card('bob')).toHaveAttribute('data-state', 'waiting');
    await expect(card('carol')).toHaveAttribute('data-state', 'working');

    // The three work at the same time: with alice's answer held, bob and carol asked the server all
    // the same (one after another, they would wait for her forever). Not a bound on the spread of
    // their start times, which a loaded machine can stretch.
    const asked = (name: string) =>
      api.requests.some((r) => JSON.stringify(r.body.system).includes(worker(name)));
    await expect.poll(() => ['alice', 'bob', 'carol'].every(asked)).toBe(true);
    await expect(card('alice')).toHaveAttribute('data-state', 'working');
    api.release('alice');

    await prompt.getByRole('button', { name: 'Allow once' }).click();
    await expect(card('bob')).toHaveAttribute('data-state', 'idle');
    await expect(card('alice')).toHaveAttribute('data-state', 'idle');
    expect(readFileSync(path.join(project, 'b.txt'), 'utf8')).toBe('part B\n');
    // Each card carries its own cost, and the results came back as messages to the coordinator.
    for (const name of ['alice', 'bob'])
      await expect(card(name).getByTestId('member-cost')).toHaveText(
        /^(<\$0\.01|\$(?!0\.00)[\d,]+\.\d\d) own · (<\$0\.01|\$[\d,]+\.\d\d) total$/,
      );
    await page.getByRole('tab', { name: /^Messages/ }).click();
    const timeline = page.getByRole('list', { name: 'Messages' });
    await expect(timeline.locator('[data-from="alice"][data-to="coordinator"]')).toContainText('alice done');
    await expect(timeline.locator('[data-from="bob"][data-to="coordinator"]')).toContainText('bob done');

    // Clicking a card opens its transcript beside the cards.
    await card('alice').click();
    const aliceLog = page.getByRole('log', { name: 'Transcript of alice' });
    await expect(aliceLog).toContainText('TASK-A');
    await expect(aliceLog).toContainText('alice done: part A is fine.');

    // The person writes to carol (M on her card) while she is still answering.
    await card('carol').focus();
    await page.keyboard.press('m');
    const box = page.getByRole('textbox', { name: 'Message to carol' });
    await box.fill('PERSON-C: also check the docs');
    await box.press('Enter');
    await expect(box).toBeHidden();
    await page.getByRole('tab', { name: /^Messages/ }).click();
    await expect(timeline.locator('[data-from="person"][data-to="carol"]')).toContainText('PERSON-C');
    await expect(card('carol')).toContainText('1 unread');
    await expect(card('carol')).toHaveAttribute('data-state', 'working');

    // The server restarts mid-team.
    await serve.stop();
    serve = await open(page, project, home, api.url);
    await page.getByRole('button', { name: /^Team view/ }).click();
    await expect(tree.getByRole('treeitem')).toHaveCount(4);
    // Every worker is back, idle; carol still has the person's message waiting, and the timeline kept it.
    for (const name of ['alice', 'bob', 'carol'])
      await expect(card(name)).toHaveAttribute('data-state', 'idle');
    await expect(card('carol')).toContainText('1 unread');
    await page.getByRole('tab', { name: /^Messages/ }).click();
    await expect(timeline.locator('[data-from="person"][data-to="carol"]')).toContainText('PERSON-C');
    await expect(timeline.locator('[data-from="coordinator"][data-to="alice"]')).toContainText('TASK-A');
    // And the transcripts: bob's, with his write, read back from disk.
    await card('bob').click();
    const bobLog = page.getByRole('log', { name: 'Transcript of bob' });
    await expect(bobLog).toContainText('bob done: wrote b.txt');
    await expect(bobLog.locator('[data-tool="Write"]')).toHaveAttribute('data-state', 'done');

    // The coordinator works again: carol takes up the person's message, which reaches her next request.
    await send(page, 'Continue');
    await expect
      .poll(() =>
        api.requests.some(
          (r) =>
            JSON.stringify(r.body.system).includes(worker('carol')) &&
            JSON.stringify(r.body.messages?.at(-1)).includes('PERSON-C: also check the docs'),
        ),
      )
      .toBe(true);
    // Her report makes the coordinator end the team: every card ends.
    for (const name of ['alice', 'bob', 'carol'])
      await expect(card(name)).toHaveAttribute('data-state', 'done');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('All three parts are done.');
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
  }
});
