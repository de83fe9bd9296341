import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { projectSlug } from '../platform/paths';
import { text, toolUse } from '../test-support/engine';
import { capturePrint } from '../test-support/print-run';
import { COORDINATOR, delegatesToWorker, worker } from '../test-support/team-scenario';
import { tempDir } from '../test-support/temp';
import { UsageError } from './args';

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });

async function print(scenario: ScenarioInput) {
  const api = await startScriptedApi({ scenario });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-print-home-');
  const project = realpathSync(tempDir('carapace-print-project-'));
  const env = { CARAPACE_HOME: home, HOME: home, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: api.url };
  const run = (argv: string[]) => capturePrint(argv, { env, cwd: project });
  const sessionFile = (id: string) => path.join(home, 'projects', projectSlug(project), `${id}.jsonl`);
  return { api, run, project, sessionFile };
}

describe('carapace -p --coordinator', () => {
  it('runs a team, gives the structured output as the result, and counts the workers’ cost', async () => {
    const p = await print({
      steps: [
        {
          when: { systemText: COORDINATOR, lastUserText: 'Survey' },
          reply: {
            content: [
              toolUse('TeamCreate', {
                workers: [
                  { name: 'reader', agent_type: 'general-purpose', instructions: 'Reads.' },
                  { name: 'writer', agent_type: 'general-purpose', instructions: 'Writes.' },
                ],
              }),
            ],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Created 2 workers' },
          reply: {
            content: [
              toolUse('SendMessage', { to: 'reader', message: 'READ-TASK', wait: true }, 's1'),
              toolUse('SendMessage', { to: 'writer', message: 'WRITE-TASK', wait: true }, 's2'),
            ],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { systemText: worker('reader'), lastUserText: 'READ-TASK' },
          reply: { content: [text('read 3 files')], usage: usage(1000, 10) },
        },
        {
          when: { systemText: worker('writer'), lastUserText: 'WRITE-TASK' },
          reply: {
            content: [toolUse('Write', { file_path: 'w.txt', content: 'w' }, 'w1')],
            stop_reason: 'tool_use',
            usage: usage(2000, 10),
          },
        },
        // Print mode has nobody to ask: the worker's write is refused, and it says so.
        {
          when: { systemText: worker('writer'), lastUserPattern: 'denied|not allowed|refused|approval' },
          reply: { content: [text('could not write')], usage: usage(500, 10) },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'could not write' },
          reply: {
            content: [toolUse('SyntheticOutput', { files: 3, wrote: false }, 'out')],
            stop_reason: 'tool_use',
            usage: usage(100, 10),
          },
        },
        {
          when: { systemText: COORDINATOR, lastUserText: 'Structured output recorded' },
          reply: { content: [text('Done.')], usage: usage(100, 10) },
        },
      ],
    });
    const { code, out } = await p.run([
      '-p',
      'Survey the project',
      '--coordinator',
      '--output-format',
      'json',
    ]);
    const result = JSON.parse(out.trim()) as {
      result: string;
      structured_output: unknown;
      session_id: string;
      modelUsage: Record<string, { inputTokens: number }>;
      total_cost_usd: number;
      num_turns: number;
    };
    expect(code).toBe(0);
    expect(result.structured_output).toEqual({ files: 3, wrote: false });
    expect(JSON.parse(result.result)).toEqual({ files: 3, wrote: false });
    // The workers' requests are in the session's cost.
    expect(result.modelUsage['claude-sonnet-4-5']?.inputTokens).toBe(400 + 1000 + 2000 + 500);
    // The session is marked as a coordinator's, and its team is on disk.
    const first = JSON.parse(
      readFileSync(p.sessionFile(result.session_id), 'utf8').split('\n')[0] ?? '{}',
    ) as {
      coordinator?: boolean;
    };
    expect(first.coordinator).toBe(true);
  });

  it('waits for its workers when its turn ends before they do, and takes up their results', async () => {
    const p = await print({
      steps: [
        ...delegatesToWorker({
          prompt: 'Delegate',
          name: 'solo',
          task: 'SOLO-TASK',
          waiting: 'Waiting for solo.',
          reply: { content: [text('solo result 42')], delayMs: 20, chunkChars: 2 },
        }),
        {
          when: { systemText: COORDINATOR, lastUserText: 'solo result 42' },
          reply: { content: [text('solo says 42')] },
        },
      ],
    });
    const { code, out } = await p.run([
      '-p',
      'Delegate it',
      '--coordinator',
      '--output-format',
      'stream-json',
    ]);
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            subtype?: string;
            tools?: string[];
            result?: string;
            num_turns?: number;
          },
      );
    expect(lines[0]?.tools).toEqual(['TeamCreate', 'TeamDelete', 'SendMessage', 'SyntheticOutput']);
    const last = lines.at(-1);
    expect(last).toMatchObject({ type: 'result', subtype: 'success', result: 'solo says 42' });
    // Its first turn (three answers) and the turn its team's mail started (one).
    expect(last?.num_turns).toBe(4);
  });

  it('refuses to make a resumed ordinary session a coordinator', async () => {
    const p = await print({ steps: [{ reply: { content: [text('hi')] } }] });
    const first = await p.run(['-p', 'hello', '--output-format', 'json']);
    const id = (JSON.parse(first.out.trim()) as { session_id: string }).session_id;
    await expect(p.run(['-p', 'again', '--resume', id, '--coordinator'])).rejects.toThrow(UsageError);
  });
});
