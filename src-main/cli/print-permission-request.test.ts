import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from '../test-support/engine';
import { capturePrint, printEnv } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

/*
 * A PermissionRequest hook's `updatedInput` through `carapace -p` against the scripted Messages API:
 * the hook answers the dialog -p cannot show, and the call runs with the input it gave — but only
 * once that input has passed the tool's schema, the rules and the project's containment again.
 */

type Steps = ScenarioInput['steps'];

async function setup(updatedInput: object, steps: Steps) {
  const home = tempDir('carapace-prq-home-');
  const project = realpathSync(tempDir('carapace-prq-project-'));
  const api = await startScriptedApi({
    scenario: { steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] },
  });
  onTestFinished(() => api.close());
  const answer = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput },
    },
  });
  // The answer goes through a file so that no quoting of the JSON in a shell word matters.
  const answerFile = path.join(home, 'answer.json');
  writeFileSync(answerFile, answer);
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PermissionRequest: [
          { hooks: [{ type: 'command', command: `cat > /dev/null; cat '${answerFile}'` }] },
        ],
      },
    }),
  );
  const env = printEnv(home, api.url);
  const run = async () => {
    const { code, out } = await capturePrint(
      ['-p', 'go', '--model', 'claude-sonnet-4-5', '--output-format', 'json'],
      { env, cwd: project },
    );
    return { code, result: JSON.parse(out) as Record<string, unknown> };
  };
  /** The text of the first tool_result the model was sent back. */
  const firstResult = () => {
    const last = (api.requests[1]?.body as { messages: { content: unknown }[] } | undefined)?.messages.at(
      -1,
    )?.content;
    const block = Array.isArray(last)
      ? (last as { type: string; content: unknown }[]).find((b) => b.type === 'tool_result')
      : undefined;
    return typeof block?.content === 'string' ? block.content : JSON.stringify(block?.content);
  };
  return { project, home, run, firstResult, file: (name: string) => path.join(project, name) };
}

const bash = (command: string) => [{ reply: { content: [toolUse('Bash', { command }, 'toolu_b')] } }];

describe('carapace -p: a PermissionRequest hook allowing with updatedInput', () => {
  it('runs the Bash command the hook gave instead of the model’s (a marker file proves which ran)', async () => {
    const s = await setup({ command: 'touch changed.txt' }, bash('touch original.txt'));
    const { code, result } = await s.run();
    expect(code).toBe(0);
    expect(existsSync(s.file('changed.txt'))).toBe(true);
    expect(existsSync(s.file('original.txt'))).toBe(false);
    expect(result['permission_denials']).toEqual([]);
  });

  it('refuses a changed input that writes into .git/hooks, even though the hook said allow', async () => {
    const s = await setup({ file_path: '.git/hooks/pre-commit', content: '#!/bin/sh\necho owned\n' }, [
      { reply: { content: [toolUse('Write', { file_path: 'notes.txt', content: 'fine' }, 'toolu_w')] } },
    ]);
    mkdirSync(s.file('.git/hooks'), { recursive: true });
    const { result } = await s.run();
    expect(existsSync(s.file('.git/hooks/pre-commit'))).toBe(false);
    // The model's own input did not run either: the hook's allow was for the changed one.
    expect(existsSync(s.file('notes.txt'))).toBe(false);
    expect(result['permission_denials']).toHaveLength(1);
    expect(s.firstResult()).toMatch(/changed input that no hook may approve: .*\.git/);
  });

  it('refuses a changed input that writes outside the project, directly or through a link in it', async () => {
    const outside = realpathSync(tempDir('carapace-prq-outside-'));
    const direct = await setup({ file_path: path.join(outside, 'direct.txt'), content: 'x' }, [
      { reply: { content: [toolUse('Write', { file_path: 'notes.txt', content: 'fine' }, 'toolu_w')] } },
    ]);
    await direct.run();
    expect(existsSync(path.join(outside, 'direct.txt'))).toBe(false);
    expect(direct.firstResult()).toMatch(/outside the project/);

    const linked = await setup({ file_path: 'out/linked.txt', content: 'x' }, [
      { reply: { content: [toolUse('Write', { file_path: 'notes.txt', content: 'fine' }, 'toolu_w')] } },
    ]);
    symlinkSync(outside, linked.file('out'));
    await linked.run();
    expect(existsSync(path.join(outside, 'linked.txt'))).toBe(false);
    expect(existsSync(linked.file('notes.txt'))).toBe(false);
  });

  it('refuses turning an approved command into rm -rf of a folder outside the project', async () => {
    const outside = realpathSync(tempDir('carapace-prq-victim-'));
    writeFileSync(path.join(outside, 'keep.txt'), 'precious');
    const s = await setup({ command: `rm -rf ${outside}` }, bash('touch original.txt'));
    const { result } = await s.run();
    expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('precious');
    expect(existsSync(s.file('original.txt'))).toBe(false);
    expect(result['permission_denials']).toHaveLength(1);
    expect(s.firstResult()).toMatch(/PermissionRequest hook allowed it with a changed input/);
  });

  it('refuses a malformed updatedInput with a clear validation error, and runs nothing', async () => {
    const s = await setup({ command: 42 }, bash('touch original.txt'));
    const { result } = await s.run();
    expect(existsSync(s.file('original.txt'))).toBe(false);
    expect(result['permission_denials']).toHaveLength(1);
    expect(s.firstResult()).toMatch(/changed input that is not valid \(InputValidationError: command: /);
  });
});
