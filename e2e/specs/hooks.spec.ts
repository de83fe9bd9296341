import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, newSessionTab, send, test } from '../fixtures/test';

/**
 * A repository's own hooks in the app, in Chromium over serve mode against the scripted Messages
 * API: the trust prompt lists them; they do not run while the folder is untrusted; once it is
 * trusted, the same session's next turn runs them and each run is a quiet note in the transcript.
 */

const HOOK = 'touch "$CLAUDE_PROJECT_DIR/hook-ran.txt"';

test.use({
  openProject: false,
  scenario: {
    steps: [
      {
        times: true,
        when: { lastUserText: 'say hello' },
        reply: {
          content: [{ type: 'tool_use', id: 'h1', name: 'Bash', input: { command: 'echo hello-from-bash' } }],
          stop_reason: 'tool_use',
        },
      },
      {
        times: true,
        when: { lastUserText: 'hello-from-bash' },
        reply: { content: [{ type: 'text', text: 'Said hello.' }] },
      },
    ],
  },
});

test("a project's PreToolUse hook: listed by the trust prompt, off until trusted, then run with a note", async ({
  app: page,
  project,
}) => {
  const marker = path.join(project, 'hook-ran.txt');
  mkdirSync(path.join(project, '.claude'));
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: HOOK }] }] },
    }),
  );
  await page.getByRole('button', { name: 'Open project…' }).first().click();
  const open = page.getByRole('dialog', { name: 'Open project' });
  await open.getByLabel('Folder path').fill(project);
  await open.getByRole('button', { name: 'Open', exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Trust this folder?' });
  await expect(prompt.getByRole('region', { name: 'Hooks (run commands)' })).toContainText(
    `PreToolUse hook (Bash): ${HOOK}`,
  );
  await prompt.getByRole('button', { name: "Don't trust" }).click();
  await expect(prompt).toBeHidden();

  // Untrusted: the Bash call runs, its hook does not.
  await newSessionTab(page);
  await send(page, 'say hello');
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript).toContainText('Said hello.');
  expect(existsSync(marker)).toBe(false);
  await expect(transcript).not.toContainText('PreToolUse hook');

  // The person changes their mind: revoke the refusal in Settings, and trust on the next open.
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings
    .getByRole('region', { name: 'Trusted folders' })
    .getByRole('button', { name: `Revoke trust in ${project}` })
    .click();
  await settings.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Trust', exact: true }).click();
  await expect(prompt).toBeHidden();

  // The same session (no restart): its next turn runs the hook, and the run is a note.
  await send(page, 'say hello');
  await expect(transcript.getByText('Said hello.')).toHaveCount(2);
  expect(existsSync(marker)).toBe(true);
  const note = transcript.getByText(/PreToolUse hook \(Bash\): touch .* — ok, \d+ ms/);
  await expect(note).toBeVisible();
  await page.setViewportSize({ width: 900, height: 600 });
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots/hooks-note-900x600.png' });
});
