import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startScriptedApi, type ScriptedApi } from '../../src-main/devtools/scripted-api/server';
import type { ScenarioInput } from '../../src-main/devtools/scripted-api/scenario';
import { projectSlug } from '../../src-main/platform/paths';
import { cliEnv, runCli } from '../fixtures/cli';

const corpus = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../src-main/harness/bash/corpus.json'), 'utf8'),
) as Record<'read-only' | 'writes' | 'hides-a-write', string[]>;

interface Ctx {
  api: ScriptedApi;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
  sessionFile: (id: string) => string;
}

async function setup(scenario: ScenarioInput): Promise<Ctx> {
  const api = await startScriptedApi({ scenario });
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-print-home-'));
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-print-project-'));
  const env = cliEnv(home, {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'test-key',
    CARAPACE_MAX_RETRIES: '1',
  });
  return {
    api,
    home,
    project,
    env,
    sessionFile: (id) => path.join(home, 'projects', projectSlug(project), `${id}.jsonl`),
  };
}

async function teardown(c: Ctx) {
  await c.api.close();
  rmSync(c.home, { recursive: true, force: true });
  rmSync(c.project, { recursive: true, force: true });
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});

test('carapace -p runs a multi-turn tool scenario and prints the json result, priced from the reported usage', async () => {
  const usage = [
    { input_tokens: 1200, output_tokens: 80, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0 },
    { input_tokens: 300, output_tokens: 60, cache_creation_input_tokens: 0, cache_read_input_tokens: 3200 },
    { input_tokens: 400, output_tokens: 90, cache_creation_input_tokens: 0, cache_read_input_tokens: 3200 },
    { input_tokens: 500, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 3200 },
  ];
  const c = await setup({
    steps: [
      {
        reply: {
          content: [text('Looking.'), use('t1', 'Glob', { pattern: '*.txt' })],
          stop_reason: 'tool_use',
          usage: usage[0],
        },
      },
      {
        reply: {
          content: [
            use('t2', 'Read', { file_path: 'todo.txt' }),
            use('t3', 'Grep', { pattern: 'milk', output_mode: 'content' }),
          ],
          stop_reason: 'tool_use',
          usage: usage[1],
        },
      },
      {
        reply: {
          content: [use('t4', 'Edit', { file_path: 'todo.txt', old_string: 'milk', new_string: 'oat milk' })],
          stop_reason: 'tool_use',
          usage: usage[2],
        },
      },
      { reply: { content: [text('Changed milk to oat milk.')], usage: usage[3] } },
    ],
  });
  try {
    writeFileSync(path.join(c.project, 'todo.txt'), 'buy milk\n');
    const run = runCli(
      [
        '-p',
        'switch to oat milk',
        '--output-format',
        'json',
        '--permission-mode',
        'acceptEdits',
        '--model',
        'claude-sonnet-4-5',
      ],
      c.env,
      c.project,
    );
    expect(await run.exit).toBe(0);
    const result = JSON.parse(run.stdout()) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Changed milk to oat milk.',
      num_turns: 4,
      permission_denials: [],
      terminal_reason: 'completed',
    });
    expect(typeof result['session_id']).toBe('string');
    expect(result['duration_ms']).toBeGreaterThan(0);
    expect(result['duration_api_ms']).toBeGreaterThan(0);
    expect(readFileSync(path.join(c.project, 'todo.txt'), 'utf8')).toBe('buy oat milk\n');

    // Sonnet: $3 / $15 per million; cache writes ×1.25, cache reads ×0.1 of the input price.
    const perM = (n: number, price: number) => (n * price) / 1e6;
    const expected = usage.reduce(
      (sum, u) =>
        sum +
        perM(u.input_tokens, 3) +
        perM(u.output_tokens, 15) +
        perM(u.cache_creation_input_tokens, 3.75) +
        perM(u.cache_read_input_tokens, 0.3),
      0,
    );
    expect(result['total_cost_usd']).toBeCloseTo(expected, 6);
    expect(result['usage']).toEqual({
      input_tokens: 2400,
      output_tokens: 270,
      cache_creation_input_tokens: 2000,
      cache_read_input_tokens: 9600,
    });
    expect(
      (result['modelUsage'] as Record<string, { costUSD: number }>)['claude-sonnet-4-5']?.costUSD,
    ).toBeCloseTo(expected, 6);
    // The parallel Read and Grep both reached the model, in the order it asked.
    const third = JSON.stringify(c.api.requests[2]?.body.messages?.at(-1));
    expect(third.indexOf('"t2"')).toBeLessThan(third.indexOf('"t3"'));
  } finally {
    await teardown(c);
  }
});

test('carapace -p lists every refused tool call in permission_denials, and the refused writes leave no trace', async () => {
  const c = await setup({
    steps: [
      {
        reply: {
          content: [
            use('w1', 'Write', { file_path: 'new.txt', content: 'x' }),
            use('b1', 'Bash', { command: 'touch hacked.txt' }),
          ],
          stop_reason: 'tool_use',
        },
      },
      { reply: { content: [text('I could not write.')] } },
    ],
  });
  try {
    const run = runCli(['-p', 'make files', '--output-format', 'json'], c.env, c.project);
    expect(await run.exit).toBe(0);
    const result = JSON.parse(run.stdout()) as { permission_denials: unknown[] };
    expect(result.permission_denials).toEqual([
      { tool_name: 'Write', tool_use_id: 'w1', tool_input: { file_path: 'new.txt', content: 'x' } },
      { tool_name: 'Bash', tool_use_id: 'b1', tool_input: { command: 'touch hacked.txt' } },
    ]);
    expect(existsSync(path.join(c.project, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(c.project, 'hacked.txt'))).toBe(false);
    // The model was told why.
    expect(JSON.stringify(c.api.requests[1]?.body.messages)).toContain('Permission to use Write was denied');
  } finally {
    await teardown(c);
  }
});

test('stream-json with --verbose prints messages and each transition as a line', async () => {
  const c = await setup({
    steps: [
      { reply: { content: [text('cut')], stop_reason: 'max_tokens' } },
      { reply: { content: [use('g', 'Glob', { pattern: '*' })], stop_reason: 'tool_use' } },
      { reply: { content: [text('done')] } },
    ],
  });
  try {
    const run = runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose'], c.env, c.project);
    expect(await run.exit).toBe(0);
    const lines = run
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; subtype?: string; reason?: string });
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(lines.filter((l) => l.subtype === 'transition').map((l) => l.reason)).toEqual([
      'max_output_tokens_escalate',
      'next_turn',
    ]);
    expect(lines.map((l) => l.type)).toEqual([
      'system',
      'system',
      'system',
      'assistant',
      'user',
      'system',
      'assistant',
      'result',
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'result', terminal_reason: 'completed' });
  } finally {
    await teardown(c);
  }
});

test('kill -9 mid-stream: the transcript parses up to its last complete line and the session resumes', async () => {
  const c = await setup({
    steps: [
      { when: { lastUserText: 'first' }, reply: { content: [text('First answer, saved.')] } },
      {
        when: { lastUserText: 'second' },
        reply: {
          content: [text('A very long reply that streams slowly. '.repeat(40))],
          chunkChars: 4,
          delayMs: 30,
        },
      },
      { when: { lastUserText: 'after the crash' }, reply: { content: [text('Resumed fine.')] } },
    ],
  });
  try {
    const first = runCli(['-p', 'first', '--output-format', 'json'], c.env, c.project);
    expect(await first.exit).toBe(0);
    const sessionId = (JSON.parse(first.stdout()) as { session_id: string }).session_id;

    const victim = runCli(
      ['-p', 'second', '--resume', sessionId, '--output-format', 'stream-json'],
      c.env,
      c.project,
    );
    // Wait until the reply is streaming, then kill the process without warning.
    await expect.poll(() => c.api.requests.length, { timeout: 10_000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    victim.child.kill('SIGKILL');
    expect(await victim.exit).toBe(null);

    const raw = readFileSync(c.sessionFile(sessionId), 'utf8');
    const complete = raw.endsWith('\n') ? raw.slice(0, -1) : raw.slice(0, raw.lastIndexOf('\n'));
    const lines = complete.split('\n').map(
      (l) =>
        JSON.parse(l) as {
          type: string;
          item?: { kind: string; role?: string; content?: { text?: string }[] };
        },
    );
    // Everything up to the message being streamed is there: the second prompt survived, its reply did not.
    const texts = lines.flatMap((l) =>
      l.item?.kind === 'message' ? [l.item.content?.map((b) => b.text ?? '').join('') ?? ''] : [],
    );
    expect(texts).toEqual(['first', 'First answer, saved.', 'second']);

    // A torn last line (a crash mid-write) is tolerated and reported, not fatal.
    appendFileSync(c.sessionFile(sessionId), '{"type":"item","item":{"kind":"mess');
    const resumed = runCli(
      ['-p', 'after the crash', '--resume', sessionId, '--output-format', 'json'],
      c.env,
      c.project,
    );
    expect(await resumed.exit).toBe(0);
    expect(JSON.parse(resumed.stdout())).toMatchObject({ result: 'Resumed fine.', session_id: sessionId });
    expect(resumed.stderr()).toContain('was cut off');
    // The resumed request carried the whole conversation, including the unanswered second prompt.
    const sent = JSON.stringify(c.api.requests.at(-1)?.body.messages);
    for (const t of ['first', 'First answer, saved.', 'second', 'after the crash']) expect(sent).toContain(t);
    expect(readdirSync(path.dirname(c.sessionFile(sessionId))).filter((f) => f.endsWith('.jsonl'))).toEqual([
      `${sessionId}.jsonl`,
    ]);
  } finally {
    await teardown(c);
  }
});

test('Ctrl+C stops the turn and still prints the result; --continue picks up the newest session', async () => {
  const c = await setup({
    steps: [
      {
        when: { lastUserText: 'slow' },
        // Held after a few words until the end of the test: the turn is still running when Ctrl+C comes.
        reply: {
          content: [text('word '.repeat(500))],
          chunkChars: 5,
          hold: { afterEvents: 12, gate: 'rest' },
        },
      },
      { when: { lastUserText: 'next' }, reply: { content: [text('continued')] } },
    ],
  });
  try {
    const run = runCli(['-p', 'slow', '--output-format', 'json'], c.env, c.project);
    await expect.poll(() => c.api.requests.length, { timeout: 10_000 }).toBe(1);
    // The words that streamed are written down in pieces: wait for them there, not for a fixed time.
    const dir = path.dirname(c.sessionFile('x'));
    const onDisk = () =>
      existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith('.jsonl'))
            .map((f) => readFileSync(path.join(dir, f), 'utf8'))
            .join('')
        : '';
    await expect.poll(onDisk, { timeout: 15_000 }).toMatch(/"partial".*word word/);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    c.api.release('rest');
    const result = JSON.parse(run.stdout()) as {
      terminal_reason: string;
      is_error: boolean;
      session_id: string;
    };
    expect(result).toMatchObject({ terminal_reason: 'aborted', is_error: true });

    const next = runCli(['-p', 'next', '--continue', '--output-format', 'json'], c.env, c.project);
    expect(await next.exit).toBe(0);
    expect(JSON.parse(next.stdout())).toMatchObject({ session_id: result.session_id, result: 'continued' });
    // The interrupted partial reply was kept and went back to the model.
    expect(JSON.stringify(c.api.requests.at(-1)?.body.messages)).toContain('word word');
  } finally {
    await teardown(c);
  }
});

test('-p in default mode: read-only commands run, the rest is refused and listed; no corpus command that hides a write leaves a trace', async () => {
  const hidden = corpus['hides-a-write'];
  const readOnly = ['ls', 'echo visible output', 'cat notes.txt', 'wc -l notes.txt'];
  const uses = [...readOnly, ...hidden].map((command, i) => use(`b${i}`, 'Bash', { command }));
  const c = await setup({
    steps: [
      { reply: { content: [text('Trying everything.'), ...uses], stop_reason: 'tool_use' } },
      { reply: { content: [text('done')] } },
    ],
  });
  try {
    writeFileSync(path.join(c.project, 'notes.txt'), 'one\ntwo\n');
    const run = runCli(
      ['-p', 'try them all', '--output-format', 'json', '--permission-mode', 'default'],
      c.env,
      c.project,
    );
    expect(await run.exit).toBe(0);
    const result = JSON.parse(run.stdout()) as {
      permission_denials: { tool_use_id: string; tool_input: { command: string } }[];
    };
    const denied = result.permission_denials.map((d) => d.tool_input.command).sort();
    expect(denied).toEqual([...hidden].sort());
    expect(existsSync(path.join(c.project, 'pwned'))).toBe(false);
    // The read-only ones ran, and their output went back to the model.
    const sent = JSON.stringify(c.api.requests[1]?.body.messages);
    expect(sent).toContain('visible output');
    expect(sent).toContain('one\\ntwo');
    expect(sent).toContain('needs approval and nobody can be asked here');
  } finally {
    await teardown(c);
  }
});

test('stream-json carries a sub-agent’s messages with parent_tool_use_id, and the result’s cost includes it', async () => {
  const c = await setup({
    steps: [
      {
        when: { lastUserText: 'delegate' },
        reply: {
          content: [
            use('agent1', 'Agent', {
              description: 'Count files',
              prompt: 'SUB count the files',
              subagent_type: 'Explore',
            }),
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1000, output_tokens: 100 },
        },
      },
      {
        when: { lastUserText: 'SUB count' },
        reply: { content: [text('There are 0 files.')], usage: { input_tokens: 2000, output_tokens: 200 } },
      },
      {
        when: { lastUserText: 'There are 0' },
        reply: {
          content: [text('The sub-agent found 0 files.')],
          usage: { input_tokens: 1500, output_tokens: 150 },
        },
      },
    ],
  });
  try {
    const run = runCli(['-p', 'delegate it', '--output-format', 'stream-json'], c.env, c.project);
    expect(await run.exit).toBe(0);
    const lines = run
      .stdout()
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            parent_tool_use_id?: string | null;
            message?: { content: { type: string; text?: string }[] };
            total_cost_usd?: number;
            modelUsage?: Record<string, { inputTokens: number }>;
            result?: string;
          },
      );
    const sub = lines.filter((l) => l.parent_tool_use_id === 'agent1');
    expect(sub.map((l) => l.type)).toEqual(['user', 'assistant']);
    expect(sub[1]?.message?.content[0]?.text).toBe('There are 0 files.');
    const main = lines.filter(
      (l) => (l.type === 'assistant' || l.type === 'user') && l.parent_tool_use_id === null,
    );
    expect(main.map((l) => l.type)).toEqual(['assistant', 'user', 'assistant']);
    const result = lines.at(-1);
    expect(result?.result).toBe('The sub-agent found 0 files.');
    // Sonnet for the parent (2500 in, 250 out), Haiku for Explore (2000 in, 200 out).
    expect(result?.modelUsage?.['claude-sonnet-4-5']?.inputTokens).toBe(2500);
    expect(result?.modelUsage?.['claude-haiku-4-5']?.inputTokens).toBe(2000);
    const expected = (2500 * 3 + 250 * 15 + 2000 * 1 + 200 * 5) / 1e6;
    expect(result?.total_cost_usd).toBeCloseTo(expected, 9);
  } finally {
    await teardown(c);
  }
});
