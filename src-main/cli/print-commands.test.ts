import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from '../test-support/engine';
import { tempDir } from '../test-support/temp';
import { TrustStore, trustFile, trustKey } from '../harness/permissions/trust';
import { capturePrint } from '../test-support/print-run';

/*
 * Custom slash commands through `carapace -p` against the scripted Messages API: what the recorded
 * request carries is what the model was sent.
 */

type StepInput = ScenarioInput['steps'][number];

async function setup(files: Record<string, string>, steps: StepInput[] = []) {
  const api = await startScriptedApi({
    scenario: { steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] },
  });
  onTestFinished(() => api.close());
  const root = realpathSync(tempDir('carapace-commands-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  for (const [rel, body] of Object.entries(files)) {
    const file = path.join(rel.startsWith('~/') ? home : project, rel.replace(/^~\//, ''));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
  const env = {
    CARAPACE_HOME: path.join(home, '.carapace'),
    HOME: home,
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: api.url,
  };
  const run = async (prompt: string, ...argv: string[]) => {
    const { code, out, err } = await capturePrint(
      ['-p', prompt, '--model', 'claude-sonnet-4-5', '--output-format', 'json', ...argv],
      { env, cwd: project },
    );
    return { code, result: out === '' ? null : (JSON.parse(out) as Record<string, unknown>), stderr: err };
  };
  /** The recorded request that carries the person's turn (not a memory pick or other side call). */
  const turnRequest = (needle: string) =>
    api.requests.find((r) => JSON.stringify(r.body.messages).includes(needle));
  /** The person accepts these rules for the folder (what the app's trust prompt records). */
  const trust = (rules: string[]) =>
    new TrustStore(trustFile(env.CARAPACE_HOME)).accept(
      project,
      rules.map((r) => trustKey.allow(r)),
    );
  return { api, root, project, run, turnRequest, trust };
}

const FIX_ISSUE = [
  '---',
  'description: Fix a GitHub issue',
  'argument-hint: [number] [priority]',
  '---',
  'Please fix GitHub issue #$ARGUMENTS (number $1, priority $2).',
].join('\n');

describe('carapace -p with custom slash commands', () => {
  it('/fix-issue 42 sends the body with $ARGUMENTS and $1/$2 put in', async () => {
    const { run, turnRequest } = await setup({ '.claude/commands/fix-issue.md': FIX_ISSUE });
    const { code, result } = await run('/fix-issue 42 high');
    expect(code).toBe(0);
    expect(result?.['result']).toBe('Done.');
    const sent = JSON.stringify(turnRequest('Please fix')?.body.messages);
    expect(sent).toContain('Please fix GitHub issue #42 high (number 42, priority high).');
    // The command line itself is not what the model got.
    expect(sent).not.toContain('/fix-issue');
  });

  it('arguments with shell-ish text reach the model as plain text, never run', async () => {
    const { run, turnRequest, project } = await setup({ '.claude/commands/fix-issue.md': FIX_ISSUE });
    const hostile = '$(touch pwned) `touch pwned2` $ARGUMENTS';
    expect((await run(`/fix-issue ${hostile}`)).code).toBe(0);
    const sent = JSON.stringify(turnRequest('Please fix')?.body.messages);
    expect(sent).toContain(JSON.stringify(`#${hostile} (`).slice(1, -1));
    expect(existsSync(path.join(project, 'pwned'))).toBe(false);
    expect(existsSync(path.join(project, 'pwned2'))).toBe(false);
  });

  it('a subfolder gives namespace:name; user commands load from ~/.claude/commands', async () => {
    const { run, turnRequest } = await setup({
      '.claude/commands/frontend/component.md': 'Make a React component named $1.',
      '~/.claude/commands/standup.md': 'Summarize what changed since yesterday.',
    });
    expect((await run('/frontend:component Button')).code).toBe(0);
    expect(JSON.stringify(turnRequest('React component')?.body.messages)).toContain(
      'Make a React component named Button.',
    );
    expect((await run('/standup')).code).toBe(0);
    expect(turnRequest('Summarize what changed')).toBeDefined();
  });

  it("frontmatter model is the model of the command's turn", async () => {
    const { run, turnRequest } = await setup({
      '.claude/commands/quick.md': '---\nmodel: haiku\n---\nQuick look at $ARGUMENTS.',
      '.claude/commands/plain.md': 'Plain look at $ARGUMENTS.',
    });
    expect((await run('/quick README.md')).code).toBe(0);
    expect(turnRequest('Quick look at README.md')?.body.model).toBe('claude-haiku-4-5');
    // Without a model the session's stays.
    expect((await run('/plain README.md')).code).toBe(0);
    expect(turnRequest('Plain look at README.md')?.body.model).toBe('claude-sonnet-4-5');
  });

  it('allowed-tools pre-approves for the turn: a user command at once, a project command as far as trusted', async () => {
    const steps: StepInput[] = [
      { reply: { content: [toolUse('Write', { file_path: 'notes.txt', content: 'hello' })] } },
    ];
    const denied = await setup({ '.claude/commands/note.md': 'Write a note.' }, steps);
    const refused = await denied.run('/note');
    expect(refused.code).toBe(0);
    expect(refused.result?.['permission_denials']).toHaveLength(1);
    expect(existsSync(path.join(denied.project, 'notes.txt'))).toBe(false);

    const withTools = '---\nallowed-tools: Write, Read\n---\nWrite a note.';
    const mine = await setup({ '~/.claude/commands/note.md': withTools }, steps);
    const ran = await mine.run('/note');
    expect(ran.code).toBe(0);
    expect(ran.result?.['permission_denials']).toEqual([]);
    expect(existsSync(path.join(mine.project, 'notes.txt'))).toBe(true);

    // A cloned repository's command cannot pre-approve what the person never accepted for the folder.
    const cloned = await setup({ '.claude/commands/note.md': withTools }, steps);
    const untrusted = await cloned.run('/note');
    expect(untrusted.stderr).toContain('/note: not pre-approved');
    expect(untrusted.stderr).toContain('Write, Read');
    expect(untrusted.result?.['permission_denials']).toHaveLength(1);
    expect(existsSync(path.join(cloned.project, 'notes.txt'))).toBe(false);
    // The same command where the person accepted Write for the folder (a fresh scripted model).
    const accepted = await setup({ '.claude/commands/note.md': withTools }, steps);
    accepted.trust(['Write']);
    const trusted = await accepted.run('/note');
    expect(trusted.stderr).toContain('not pre-approved (this project');
    expect(trusted.stderr).toMatch(/they are decided as usual\): Read\n/);
    expect(trusted.result?.['permission_denials']).toEqual([]);
    expect(existsSync(path.join(accepted.project, 'notes.txt'))).toBe(true);
  });

  it('an unknown /command is a clear error and nothing is sent', async () => {
    const { run, api } = await setup({});
    const { code, stderr } = await run('/nope 1 2');
    expect(code).toBe(1);
    expect(stderr).toContain('Unknown slash command: /nope');
    expect(api.requests).toHaveLength(0);
    // A path is not a command: it is sent as written.
    expect((await run('/usr/bin/env is what the script uses?')).code).toBe(0);
    expect(api.requests).toHaveLength(1);
  });

  it('a command file linked out of the project is not read, and says why', async () => {
    const { run, api, root, project } = await setup({});
    writeFileSync(path.join(root, 'secret.md'), 'TOP SECRET $ARGUMENTS');
    mkdirSync(path.join(project, '.claude', 'commands'), { recursive: true });
    symlinkSync(path.join(root, 'secret.md'), path.join(project, '.claude', 'commands', 'leak.md'));
    const { code, stderr } = await run('/leak now');
    expect(code).toBe(1);
    expect(stderr).toMatch(/leak\.md: Not loaded: it is a link leading outside the commands folder/);
    expect(stderr).toContain('Unknown slash command: /leak');
    expect(JSON.stringify(api.requests)).not.toContain('TOP SECRET');
  });

  it('a huge command file is skipped with a notice; a built-in needing a window is refused', async () => {
    const { run } = await setup({ '.claude/commands/huge.md': 'x'.repeat(300 * 1024) });
    const huge = await run('/huge');
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/huge\.md: Not loaded: it is larger than 256 KB/);
    const cost = await run('/cost');
    expect(cost.code).toBe(1);
    expect(cost.stderr).toContain('/cost is not available in -p');
  });
});
