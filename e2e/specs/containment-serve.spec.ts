import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startScriptedApi, type ScriptedApi } from '../../src-main/devtools/scripted-api/server';
import { ROOT } from '../fixtures/cli';
import { startServe, type ServeProcess } from '../fixtures/serve';

/**
 * Breach 2, for real: in serve mode the project is never the server's working directory (the server
 * runs from the checkout; the project lives elsewhere), which is where the sandbox runtime looks for
 * the paths it protects on its own. A hostile model's sandboxed commands and file tools go after every
 * protected path; afterwards the person's own `git status` and `git checkout` must run nothing.
 */

const tool = (id: string, name: string, input: Record<string, unknown>) => ({
  reply: {
    content: [{ type: 'tool_use' as const, id, name, input }],
    stop_reason: 'tool_use' as const,
  },
});

const PROTECTED = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/agents/x.md',
  '.mcp.json',
  '.vscode/tasks.json',
  '.idea/workspace.xml',
  '.envrc',
  '.bashrc',
  '.gitmodules',
  '.git/info/attributes',
];

let project: string;
let outside: string;
let home: string;
let api: ScriptedApi;
let serve: ServeProcess;

test.beforeEach(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'carapace-served-project-'));
  outside = mkdtempSync(path.join(tmpdir(), 'carapace-outside-'));
  home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  execFileSync('git', ['init', '-q', project]);
  writeFileSync(path.join(project, 'a.txt'), 'a\n');
  // The person's own settings: sandboxed commands run without asking, so nothing but the sandbox
  // stands between the model and the files.
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({ sandbox: { autoAllowBashIfSandboxed: true } }),
  );
  const writes = PROTECTED.map(
    (p) => `mkdir -p "$(dirname ${p})"; echo pwned > ${p} && echo "wrote ${p}"`,
  ).join('; ');
  api = await startScriptedApi({
    scenario: {
      steps: [
        tool('b1', 'Bash', { command: `${writes}; echo writes-done` }),
        tool('b2', 'Bash', {
          command: `printf '[core]\\n\\tfsmonitor = touch ${outside}/fsmonitor-ran\\n' >> .git/config; printf '#!/bin/sh\\ntouch ${outside}/hook-ran\\n' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout; echo git-done`,
        }),
        tool('b3', 'Bash', {
          command: `mkdir -p evil/hooks && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = touch ${outside}/commondir-ran\\n' > evil/config && echo "${project}/evil" > .git/commondir; echo commondir-done`,
        }),
        // Control: the project itself is writable from the sandbox.
        tool('b4', 'Bash', { command: 'echo fine > ok.txt && echo control-done' }),
        tool('w1', 'Write', {
          file_path: '.claude/settings.local.json',
          content: '{"permissions":{"allow":["Bash(*)"]}}',
        }),
        { reply: { content: [{ type: 'text' as const, text: 'All done.' }] } },
      ],
    },
  });
  serve = await startServe({
    project,
    home,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'test-key', CARAPACE_MAX_RETRIES: '0' },
  });
});

test.afterEach(async () => {
  await serve.stop();
  await api.close();
  for (const d of [project, outside, home]) rmSync(d, { recursive: true, force: true });
});

test('serve mode, project outside the server’s working directory: no protected path can be written, and git afterwards runs nothing', async ({
  page,
}) => {
  expect(path.relative(ROOT, project).startsWith('..')).toBe(true);
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await page.getByRole('combobox', { name: 'Permission mode' }).selectOption('acceptEdits');
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('textbox', { name: 'Message' }).fill('attack');
  await panel.getByRole('button', { name: 'Send' }).click();

  // acceptEdits approves ordinary edits, but a protected path still asks, saying why.
  const prompt = page.getByRole('dialog', { name: 'Permission request' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('.claude/settings.local.json');
  await expect(prompt).toContainText('protected path');
  await prompt.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('All done.');

  const results = JSON.stringify(api.requests.map((r) => r.body.messages?.at(-1)));
  expect(results).toContain('writes-done');
  expect(results).not.toContain('wrote ');
  expect(results).toContain('control-done');
  expect(readFileSync(path.join(project, 'ok.txt'), 'utf8')).toBe('fine\n');
  for (const p of PROTECTED) {
    const file = path.join(project, p);
    expect(existsSync(file) ? readFileSync(file, 'utf8') : 'absent', p).not.toContain('pwned');
  }
  expect(readFileSync(path.join(project, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
  expect(existsSync(path.join(project, '.git', 'hooks', 'post-checkout'))).toBe(false);
  expect(existsSync(path.join(project, '.git', 'commondir'))).toBe(false);

  // The person's next git commands, outside any sandbox, run nothing the agent planted.
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: project, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  mkdirSync(path.join(project, 'src'));
  git('status');
  git('add', 'a.txt');
  git('-c', 'user.name=p', '-c', 'user.email=p@x', 'commit', '-qm', 'person');
  git('checkout', '-q', '-b', 'next');
  expect(readdirSync(outside)).toEqual([]);
});
